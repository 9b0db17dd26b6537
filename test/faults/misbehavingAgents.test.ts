import { spawn } from 'node:child_process'
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionOptions, FrameEvent, TargetDraft } from '../../shared/contract'
import { parseRecording } from '../../shared/session/recording'
import { slowExecutor, startA2aAgent } from '../fixtures/a2aAgents'
import { fixtureTarget, httpTarget } from '../fixtures/targets'
import { openApproved, openApprovedTarget, openUiClient, type UiCommandError, waitConnected, type UiClient } from '../../web/client'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'

// Every misbehaving server here runs under the real `parallax web`, with a UI client attached (the same
// socket and messages as the page), opened through the command API as the UI opens it, beside a healthy
// neighbour. After each fault the host must still be running and answering, the UI must have received
// the events, and the neighbour must still answer.

let host: RunningWebHost | undefined
let ui: UiClient
let neighbour: string
const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  await ui?.close()
  await host?.stop()
  host = undefined
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** Starts `parallax web`, attaches a UI client, and opens the healthy neighbour (the demo prompt server). */
async function attach(): Promise<void> {
  host = await startWebHostProcess()
  ui = await openUiClient(host)
  neighbour = await openApproved(ui, 'demo:prompts')
  await waitConnected(ui, neighbour)
}

/** Saves a fixture server as a stdio target, as a user would, and opens it through the command API. */
async function openMisbehaving(args: string[], options: Partial<ConnectionOptions> = {}): Promise<string> {
  const { origin: _origin, id: _id, ...draft } = fixtureTarget('misbehaving', args, options)
  return (await openApprovedTarget(ui, { ...draft, name: `misbehaving ${args.join(' ')}` })).connectionId
}

async function openRemote(draft: TargetDraft): Promise<string> {
  return (await openApprovedTarget(ui, draft)).connectionId
}

/** The host is alive and answering, this UI's socket is still open, a new UI can attach, and the neighbour answers. */
async function hostSurvived(): Promise<void> {
  expect(host!.alive()).toBe(true)
  expect(ui.isOpen).toBe(true)
  expect((await ui.invoke('app.info', {})).name).toBe('Parallax')
  expect(await ui.invoke('connections.probe', { connectionId: neighbour })).toEqual({ ok: true })
  const another = await openUiClient(host!)
  expect((await another.invoke('targets.list', {})).length).toBeGreaterThan(0)
  await another.close()
}

const lastState = (connectionId: string) => ui.of('connection', connectionId).at(-1)?.state
const received = (connectionId: string, method: string) =>
  ui.of('frame', connectionId).find((f) => f.method === method && f.direction === 'in' && (f.kind === 'response' || f.kind === 'error'))

describe('misbehaving MCP servers, with a UI attached to the real web host', () => {
  it('garbage on stdout, wrong shapes, unknown and duplicate ids: reported, the connection stays up', async () => {
    await attach()
    const connection = await openMisbehaving(['garbage'])
    await waitConnected(ui, connection)
    await ui.waitFor((e) => e.type === 'log' && e.connectionId === connection && /not valid JSON/.test(e.text))
    await ui.waitFor((e) => e.type === 'log' && e.connectionId === connection && /unknown message ID/.test(e.text))
    const errors = ui
      .of('log', connection)
      .filter((l) => l.level === 'error')
      .map((l) => l.text)
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/"this is not"\.\.\. is not valid JSON/),
        expect.stringMatching(/not valid JSON-RPC/),
        expect.stringMatching(/response for an unknown message ID: .*"id":9999/),
      ]),
    )
    const responses = ui.of('frame', connection).filter((f) => f.direction === 'in' && f.kind === 'response')
    expect(responses.some((f) => f.id === 9999 && f.method === undefined)).toBe(true) // unknown id: shown, unpaired
    expect(responses.filter((f) => f.id === 1)).toHaveLength(2) // the duplicate response is on record
    expect(await ui.invoke('connections.probe', { connectionId: connection })).toEqual({ ok: true })
    expect(lastState(connection)).toBe('connected')
    await hostSurvived()
  })

  it('a server that exits during initialize: a failed connection with the reason (its exit code and command line)', async () => {
    await attach()
    const connection = await openMisbehaving(['exit-init'])
    const failed = await ui.waitFor((e) => e.type === 'connection' && e.connectionId === connection && e.state === 'failed', 20_000)
    expect(failed.type === 'connection' && failed.reason).toMatch(
      /^the server process exited with code \d+ before the handshake completed \(.*misbehaving\.ts exit-init\)/,
    )
    expect(failed.type === 'connection' && failed.cause).toMatchObject({ transport: 'stdio', exit: { code: expect.any(Number) } })
    await hostSurvived()
  })

  it('a server that never answers: discovery times out, the connection stays', async () => {
    await attach()
    const connection = await openMisbehaving(['hang'], { requestTimeoutMs: 300 })
    await waitConnected(ui, connection)
    const step = await ui.waitFor((e) => e.type === 'discovery' && e.connectionId === connection && e.method === 'tools/list')
    expect(step).toMatchObject({ status: 'failed', errorCode: -32001 })
    expect(lastState(connection)).toBe('connected')
    await hostSurvived()
  })

  it('a flood of 5000 notifications: every one reaches the UI, and the engine still answers at once', async () => {
    await attach()
    const connection = await openMisbehaving(['flood'])
    await ui.waitForCount((e) => e.type === 'frame' && e.connectionId === connection && e.method === 'notifications/message', 5000, 30_000)
    const started = performance.now()
    expect(await ui.invoke('connections.probe', { connectionId: connection })).toEqual({ ok: true })
    expect(performance.now() - started).toBeLessThan(2_000)
    await hostSurvived()
  })

  it('a 50 MB result: the UI gets a bounded preview (no socket message over 4 MB), the host stays small, and frames.export gives it whole', async () => {
    const megabytes = 50
    const size = megabytes * 1024 * 1024
    await attach()
    const connection = await openMisbehaving(['huge', String(megabytes)])
    await waitConnected(ui, connection)
    const before = memoryOf(host!.pid)

    const report = await ui.invoke('tools.call', { connectionId: connection, tool: 'echo', arguments: {} })
    await ui.waitFor((e) => e.type === 'call' && e.connectionId === connection)
    const after = memoryOf(host!.pid)
    const growth = after.hwm - before.rss
    console.log(
      `50 MB result through the web host: VmHWM ${mb(before.hwm)} → ${mb(after.hwm)} MB (growth ${mb(growth)} MB, ${(growth / size).toFixed(2)}× the result); ` +
        `largest socket message to the UI ${(ui.largestMessage / 1024).toFixed(0)} KB`,
    )
    expect(ui.largestMessage).toBeLessThan(4 * 1024 * 1024)
    expect(growth).toBeLessThan(5 * size) // about 3× on a quiet machine; the garbage collector runs later under load

    // The answer, the call event and the conversation keep the shape, cut, with a marker naming the frame.
    const frame = received(connection, 'tools/call')!
    expect(frame.bytes).toBeGreaterThan(size)
    expect(frame.truncated).toMatchObject({ shownBytes: 64 * 1024 })
    const marker = new RegExp(
      `Parallax cut [\\d,]+ characters of ${size.toLocaleString('en-US')}; the whole payload is in frame #${frame.seq}`,
    )
    const text = (report.response as { content: { type: string; text: string }[] }).content[0].text
    expect(text.length).toBeLessThan(70 * 1024)
    expect(text).toMatch(marker)
    const call = ui.of('call', connection).at(-1)!
    expect((call.response as { content: { text: string }[] }).content[0].text).toMatch(marker)
    const answer = ui.of('conversation', connection).at(-1)!
    expect(answer.message.metadata?.kind).toBe('result')
    expect(answer.message.content).toMatch(marker)

    // The whole payload, on demand.
    const whole = await ui.invoke('frames.export', { connectionId: connection, seq: frame.seq })
    expect(whole.bytes).toBe(frame.bytes)
    expect((JSON.parse(whole.text) as { result: { content: { text: string }[] } }).result.content[0].text).toHaveLength(size)
    console.log(`frames.export of the 50 MB frame: VmHWM ${mb(memoryOf(host!.pid).hwm)} MB`)
    await hostSurvived()
  }, 120_000)

  it('JSON nested 5000 deep (a notification, a request, a response) while recording: refused with a clear error, the host and the recording go on', async () => {
    await attach()
    const connection = await openMisbehaving(['deep'])
    await waitConnected(ui, connection)
    await ui.invoke('recordings.start', { connectionId: connection, name: 'deep session' })
    // The notification and the request the server sent right after initialize.
    await ui.waitFor((e) => e.type === 'log' && e.connectionId === connection && /deep-request answered: error -32600/.test(e.text))
    const notes = ui.of('log', connection).map((l) => l.text)
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /sent a notification \(notifications\/message\) nested deeper than 256 levels; Parallax refused it \(its text is kept whole in frame #\d+\)/,
        ),
        expect.stringMatching(/sent a request \(ping\) nested deeper than 256 levels; Parallax refused it/),
      ]),
    )

    const report = await ui.invoke('tools.call', { connectionId: connection, tool: 'echo', arguments: {} })
    expect(report.error).toMatch(
      /the server's response is nested deeper than 256 levels; Parallax refused it \(its text is kept whole in frame #\d+\)/,
    )
    await ui.waitFor((e) => e.type === 'conversation' && e.connectionId === connection && e.message.metadata?.kind === 'error')
    expect(ui.of('call', connection).at(-1)?.error).toBe(report.error)

    // Each refused frame is on record as a bounded preview, its whole text one command away.
    const refused = ui.of('frame', connection).filter((f) => f.truncated?.refused)
    expect(refused.map((f) => f.method)).toEqual(['notifications/message', 'ping', 'tools/call'])
    // A UI gets such frames without their payload (too big to travel with every event); it asks when one is opened.
    const { payloads } = await ui.invoke('frames.payloads', { connectionId: connection, seqs: refused.map((f) => f.seq) })
    expect(payloads.every((p) => typeof p === 'string')).toBe(true)
    const whole = await ui.invoke('frames.export', { connectionId: connection, seq: refused[2].seq })
    expect(whole.text).toContain(`${'['.repeat(5000)}"bottom"${']'.repeat(5000)}`)

    expect(await ui.invoke('connections.probe', { connectionId: connection })).toEqual({ ok: true })
    const stopped = await ui.invoke('recordings.stop', { connectionId: connection })
    expect(stopped.lines).toBeGreaterThan(5)
    expect(ui.of('recording', connection).some((r) => r.state === 'failed')).toBe(false)
    const recording = parseRecording((await ui.invoke('recordings.export', { name: 'deep session' })).text)
    expect(recording.problems).toEqual([])
    expect(recording.events.some((e) => e.type === 'frame' && (e as FrameEvent).truncated?.refused)).toBe(true)
    await hostSurvived()
  }, 60_000)
})

describe('misbehaving A2A agents and networks, with a UI attached to the real web host', () => {
  it('an agent answering with JSON nested 5000 deep, plain and streamed: refused with a clear error, the connection stays', async () => {
    const agent = await startDeepA2aAgent()
    cleanups.push(agent.close)
    await attach()
    const connection = await openRemote({
      name: 'deep agent',
      spec: { kind: 'a2a', url: agent.url, headers: {}, binding: 'auto' },
      options: {},
    })
    await waitConnected(ui, connection)
    for (const stream of [false, true]) {
      const error = await ui
        .invoke('conversation.send', { connectionId: connection, turn: { text: 'hello' }, stream, newContext: false })
        .then(
          () => undefined,
          (e: Error) => e,
        )
      expect(error?.message).toMatch(/nested deeper than 256 levels; Parallax refused it/)
    }
    const refused = ui.of('frame', connection).filter((f) => f.truncated?.refused)
    expect(refused.map((f) => f.kind)).toEqual(['error', 'error'])
    expect(lastState(connection)).toBe('connected')
    await hostSurvived()
  })

  it('a stream that never ends is cut after the request timeout with a clear error', async () => {
    const agent = await startA2aAgent(slowExecutor(60_000))
    cleanups.push(() => agent.close())
    await attach()
    const connection = await openRemote({
      name: 'slow',
      spec: { kind: 'a2a', url: agent.url, headers: {}, binding: 'auto' },
      options: { requestTimeoutMs: 400 },
    })
    await waitConnected(ui, connection)
    const error = await ui
      .invoke('conversation.send', { connectionId: connection, turn: { text: 'wait' }, stream: true, newContext: false })
      .catch((e: UiCommandError) => e)
    expect((error as Error).message).toMatch(/no stream event for 400 ms/)
    await ui.waitFor((e) => e.type === 'conversation' && e.connectionId === connection && e.message.metadata?.kind === 'error')
    expect(lastState(connection)).toBe('connected')
    await hostSurvived()
  })

  it('a half-open TCP server (accepts, never answers): connecting fails after the connect timeout, for MCP and A2A', async () => {
    const sockets: Socket[] = []
    const silent: TcpServer = createTcpServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), silent.close(() => resolve()))))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    await attach()
    const options = { connectTimeoutMs: 500, requestTimeoutMs: 500 }
    const { origin: _origin, id: _id, ...mcpDraft } = httpTarget(`${url}/mcp`, 'streamable-http', options)
    const started = performance.now()
    const mcp = await openRemote(mcpDraft)
    const a2a = await openRemote({ name: 'half-open', spec: { kind: 'a2a', url, headers: {}, binding: 'auto' }, options })
    const failed = (id: string) => ui.waitFor((e) => e.type === 'connection' && e.connectionId === id && e.state === 'failed', 10_000)
    const [mcpFailed, a2aFailed] = await Promise.all([failed(mcp), failed(a2a)])
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(mcpFailed.type === 'connection' && mcpFailed.reason).toMatch(/timed out|timeout/i)
    expect(a2aFailed.type === 'connection' && a2aFailed.reason).toMatch(/timed out|timeout|aborted/i)
    await hostSurvived()
  })
})

describe('nothing lost', () => {
  it('killing Parallax while it records a busy session leaves a recording that loads, all but the last line at most', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-kill-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const out = join(dir, 'busy.jsonl')
    const turns = Array.from({ length: 400 }, (_, i) => [
      '--turn',
      JSON.stringify({ tool: 'list_creative_formats', arguments: { name_search: i % 2 ? 'pre-roll' : 'banner' } }),
    ]).flat()
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../../cli/parallax.mjs', import.meta.url)), 'record', 'demo:tools', ...turns, '--out', out],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        if (/turn 40:/.test(chunk.toString())) resolve()
      })
    })
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    const loaded = parseRecording(readFileSync(out, 'utf8'))
    expect(loaded.header?.format).toBe('parallax.recording/1')
    expect(loaded.problems.length).toBeLessThanOrEqual(1)
    if (loaded.problems[0]) expect(loaded.problems[0].message).toMatch(/truncated/)
    const calls = loaded.events.filter((e) => e.type === 'conversation' && e.message.metadata?.kind === 'call')
    expect(calls.length).toBeGreaterThanOrEqual(40)
  }, 60_000)
})

/** VmHWM (peak resident memory) and VmRSS of a process, in bytes. */
function memoryOf(pid: number): { hwm: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024
  return { hwm: field('VmHWM'), rss: field('VmRSS') }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0)

/**
 * An A2A v0.3 agent (JSON-RPC) whose every answer, plain or streamed, carries a data part nested 5000
 * levels deep. Written by hand: JSON.stringify itself would overflow the stack at this depth.
 */
async function startDeepA2aAgent(): Promise<{ url: string; close: () => Promise<void> }> {
  const depth = 5000
  const nested = `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`
  let url = ''
  const server: Server = createServer((req, res) => void answer(req, res))
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method === 'GET' && path.endsWith('agent-card.json')) {
      const card = {
        name: 'Deep agent',
        description: 'Answers with JSON nested 5000 levels deep',
        url: `${url}/a2a`,
        preferredTransport: 'JSONRPC',
        protocolVersion: '0.3.0',
        version: '1.0.0',
        capabilities: { streaming: true, pushNotifications: false },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['application/json'],
        skills: [{ id: 'deep', name: 'Deep', description: 'Nests deeply', tags: [] }],
      }
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card))
    }
    if (req.method !== 'POST' || path !== '/a2a') return void res.writeHead(404).end()
    const request = JSON.parse(await body(req)) as { id: string | number; method: string }
    const result = `{"kind":"message","messageId":"m-${Date.now()}","role":"agent","parts":[{"kind":"data","data":{"nested":${nested}}}]}`
    const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":${result}}`
    if (request.method === 'message/stream')
      return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(`data: ${answer}\n\n`)
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => resolve(text))
    req.on('error', reject)
  })
}
