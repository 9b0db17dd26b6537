import { spawn } from 'node:child_process'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { parseRecording } from '../../shared/session/recording'
import { slowExecutor, startA2aAgent, type RunningHttp } from '../fixtures/a2aAgents'
import { EventRecorder } from '../fixtures/events'
import { fixtureTarget, httpTarget } from '../fixtures/targets'

let engine: Engine
let recorder: EventRecorder
const cleanups: (() => Promise<void> | void)[] = []

function start(defaults: ConstructorParameters<typeof Engine>[0]['defaults'] = {}) {
  engine = new Engine({ host: 'cli', defaults: { keepaliveIntervalMs: 60_000, reconnectAttempts: 0, ...defaults } })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

const misbehaving = (mode: string) => fixtureTarget('misbehaving', [mode])

/** A healthy neighbour: every fault test also checks that other connections are unaffected. */
async function neighbour() {
  const connection = await engine.openTarget('demo:prompts')
  await recorder.waitFor((e) => e.type === 'connection' && e.connectionId === connection.id && e.state === 'connected', 20_000)
  return connection
}

describe('misbehaving MCP servers: Parallax reports them and keeps working', () => {
  it('garbage on stdout, wrong shapes, unknown and duplicate ids: reported, the connection stays up', async () => {
    start()
    const other = await neighbour()
    const connection = await engine.createConnection(misbehaving('garbage'))
    expect(await connection.open()).toBe(true)
    await recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && /not valid JSON/.test(e.text))
    const errors = recorder.of('log', connection.id).filter((l) => l.level === 'error').map((l) => l.text)
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/"this is not"\.\.\. is not valid JSON/),
        expect.stringMatching(/not valid JSON-RPC/),
        expect.stringMatching(/response for an unknown message ID: .*"id":9999/),
      ]),
    )
    const responses = recorder.of('frame', connection.id).filter((f) => f.direction === 'in' && f.kind === 'response')
    expect(responses.some((f) => f.id === 9999 && f.method === undefined)).toBe(true) // unknown id: shown, unpaired
    expect(responses.filter((f) => f.id === 1)).toHaveLength(2) // the duplicate response is on record
    expect(await connection.probeNow()).toBe(true)
    expect(connection.state).toBe('connected')
    expect(await other.probeNow()).toBe(true)
  })

  it('a server that exits during initialize: a failed connection with the reason', async () => {
    start()
    const other = await neighbour()
    const connection = await engine.createConnection(misbehaving('exit-init'))
    expect(await connection.open()).toBe(false)
    expect(recorder.of('connection', connection.id).at(-1)?.reason).toMatch(/closed/i)
    expect(await other.probeNow()).toBe(true)
  })

  it('a server that never answers: the call times out, the connection stays, the neighbour is fine', async () => {
    start({ requestTimeoutMs: 300 })
    const other = await neighbour()
    const connection = await engine.createConnection(misbehaving('hang'))
    expect(await connection.open()).toBe(true)
    expect(recorder.of('discovery', connection.id).find((d) => d.method === 'tools/list')).toMatchObject({ status: 'failed', errorCode: -32001 })
    expect(connection.state).toBe('connected')
    expect(await other.probeNow()).toBe(true)
  })

  it('a flood of 5000 notifications: every one on record, and the engine still answers at once', async () => {
    start()
    const other = await neighbour()
    const connection = await engine.createConnection(misbehaving('flood'))
    expect(await connection.open()).toBe(true)
    await recorder.waitForCount((e) => e.type === 'frame' && e.connectionId === connection.id && e.method === 'notifications/message', 5000, 20_000)
    const started = performance.now()
    expect(await connection.probeNow()).toBe(true)
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(await other.probeNow()).toBe(true)
  })

  it('a 20 MB result: the call succeeds; the frame is kept truncated with its full size, and saved whole', async () => {
    start()
    const other = await neighbour()
    const connection = await engine.createConnection(misbehaving('huge'))
    expect(await connection.open()).toBe(true)
    const { result } = await (connection as unknown as { callTool: (t: string, a: object) => Promise<{ result: { content: { text: string }[] } }> }).callTool('echo', {})
    expect(result.content[0].text).toHaveLength(20 * 1024 * 1024)
    const frame = recorder.of('frame', connection.id).find((f) => f.method === 'tools/call' && f.direction === 'in')!
    expect(frame.bytes).toBeGreaterThan(20 * 1024 * 1024)
    expect(frame.truncated).toMatchObject({ shownBytes: 64 * 1024 })
    expect(typeof frame.payload).toBe('string')
    expect((frame.payload as string).length).toBeLessThan(70 * 1024)
    const whole = (await engine.execute('frames.export', { connectionId: connection.id, seq: frame.seq })) as { text: string; bytes: number }
    expect(whole.bytes).toBe(frame.bytes)
    expect(JSON.parse(whole.text).result.content[0].text).toHaveLength(20 * 1024 * 1024)
    expect(await other.probeNow()).toBe(true)
  })

  it('JSON nested 5000 deep: read, or refused with a clear error (it depends on the stack left), and the connection stays up', async () => {
    start()
    const connection = await engine.createConnection(misbehaving('deep'))
    expect(await connection.open()).toBe(true)
    // The value itself never goes near an assertion: printing it would overflow the stack too.
    let outcome = 'ok'
    await (connection as unknown as { callTool: (t: string, a: object) => Promise<unknown> }).callTool('echo', {}).catch((error: Error) => (outcome = error.message))
    expect(outcome === 'ok' || /could not be read.*nested too deeply/.test(outcome)).toBe(true)
    expect(recorder.of('conversation', connection.id).at(-1)?.message.metadata?.kind).toBe(outcome === 'ok' ? 'result' : 'error')
    expect(recorder.of('frame', connection.id).some((f) => f.method === 'tools/call' && f.direction === 'in')).toBe(true)
    expect(await connection.probeNow()).toBe(true)
  })
})

describe('misbehaving A2A agents and networks', () => {
  it('a stream that never ends is cut after the request timeout with a clear error', async () => {
    const agent = await startA2aAgent(slowExecutor(60_000))
    cleanups.push(() => agent.close())
    start({ requestTimeoutMs: 400 })
    const target: SavedTarget = { id: 'slow', name: 'slow', origin: 'user', options: {}, spec: { kind: 'a2a', url: agent.url, headers: {}, binding: 'auto' } }
    const connection = (await engine.createConnection(target)) as unknown as { open(): Promise<boolean>; send: (t: object, o: object) => Promise<unknown>; id: string; state: string }
    expect(await connection.open()).toBe(true)
    await expect(connection.send({ text: 'wait' }, { stream: true })).rejects.toThrow(/no stream event for 400 ms/)
    expect(recorder.of('conversation', connection.id).at(-1)?.message.metadata?.kind).toBe('error')
    expect(connection.state).toBe('connected')
  })

  it('a half-open TCP server (accepts, never answers): connecting fails after the connect timeout, for MCP and A2A', async () => {
    const sockets: Socket[] = []
    const silent: TcpServer = createTcpServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), silent.close(() => resolve()))))
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`
    start({ connectTimeoutMs: 500, requestTimeoutMs: 500 })
    const mcp = await engine.createConnection(httpTarget(`${url}/mcp`, 'streamable-http'))
    const a2a = await engine.createConnection({ id: 'half-open', name: 'half-open', origin: 'user', options: {}, spec: { kind: 'a2a', url, headers: {}, binding: 'auto' } })
    const started = performance.now()
    expect(await Promise.all([mcp.open(), a2a.open()])).toEqual([false, false])
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(recorder.of('connection', mcp.id).at(-1)?.reason).toMatch(/timed out|timeout/i)
    expect(recorder.of('connection', a2a.id).at(-1)?.reason).toMatch(/timed out|timeout|aborted/i)
  })
})

describe('nothing lost', () => {
  it('killing Parallax while it records a busy session leaves a recording that loads, all but the last line at most', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-kill-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const out = join(dir, 'busy.jsonl')
    const turns = Array.from({ length: 400 }, (_, i) => ['--turn', JSON.stringify({ tool: 'list_creative_formats', arguments: { channel: i % 2 ? 'video' : 'display' } })]).flat()
    const child = spawn(process.execPath, [fileURLToPath(new URL('../../cli/parallax.mjs', import.meta.url)), 'record', 'demo:tools', ...turns, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] })
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
