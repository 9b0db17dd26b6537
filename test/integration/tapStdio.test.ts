import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallEvent, EngineEvent, HandshakeEvent, HoldEvent, KeepaliveEvent, LogEvent } from '../../shared/contract'
import { cliRunner, CLI } from '../fixtures/cli'
import { isRunning } from '../fixtures/processes'
import { acpHost, DEMO_STDIO, fixtureAgent, fixtureServer, mcpHost, serverCommand, tapped, tapSessions } from '../fixtures/tapHosts'

// `parallax tap` between a real host (the SDKs' own clients) and a real server: the host gets what it gets
// without the tap, and the session is Parallax's to read — frames, the host's handshake, its discovery,
// pings, calls checked, findings about the host — in the shared sessions folder and in a recording.

const folders: string[] = []
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-tap-'))
  folders.push(dir)
  return dir
}
const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type)

/** What a host does with an MCP server: list, call (one call with a field of AdCP's envelope in its arguments), ping. */
async function mcpSession(command: Parameters<typeof mcpHost>[0]) {
  const { host, stderr } = await mcpHost(command)
  const tools = await host.listTools()
  const call = await host.callTool({ name: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast', task_id: 'task-7' } })
  const formats = await host.callTool({ name: 'list_creative_formats', arguments: { name_search: 'pre-roll' } })
  await host.ping()
  await host.close()
  return { tools, call, formats, info: host.getServerVersion(), capabilities: host.getServerCapabilities(), stderr: stderr() }
}

describe('parallax tap over stdio', () => {
  it('an MCP host gets exactly what it gets without the tap; the session is kept with the host’s side of it, and its recording replays with no difference', async () => {
    const data = dataFolder()
    const server = serverCommand(DEMO_STDIO, 'tools')
    const direct = await mcpSession({ command: server[0], args: server.slice(1) })
    const recording = join(data, 'tapped.jsonl')
    const through = await mcpSession(tapped(data, server, ['--name', 'media', '--record', recording]))
    expect(through.tools).toEqual(direct.tools)
    expect(through.call).toEqual(direct.call)
    expect(through.formats).toEqual(direct.formats)
    expect(through.info).toEqual(direct.info)
    expect(through.capabilities).toEqual(direct.capabilities)

    // The tap exits with the server: the session is ended and on disk.
    await expect.poll(() => tapSessions(data)[0]?.summary.ended, { timeout: 10_000 }).toBe('closed')
    const [{ summary, events }] = tapSessions(data)
    expect(summary).toMatchObject({ host: 'tap', targetName: 'media', protocol: 'mcp', transport: 'stdio' })
    expect(summary.owner).toMatchObject({ purpose: 'tap', observed: { via: 'stdio', host: { name: 'test-host', version: '4.2.0' } } })

    const handshake = ofType(events, 'handshake')[0] as Extract<HandshakeEvent, { protocol: 'mcp' }>
    expect(handshake).toMatchObject({
      observed: true,
      clientInfo: { name: 'test-host', version: '4.2.0' },
      clientCapabilities: { roots: { listChanged: true } },
    })
    expect(handshake.serverCapabilities).toEqual(direct.capabilities)
    const discovery = ofType(events, 'discovery')
    expect(discovery.map((d) => [d.method, d.status, d.count])).toEqual([['tools/list', 'called', direct.tools.tools.length]])

    const frames = ofType(events, 'frame')
    const methods = frames.filter((f) => f.kind === 'request').map((f) => `${f.direction} ${f.method}`)
    expect(methods).toEqual(['out initialize', 'out tools/list', 'out tools/call', 'out tools/call', 'out ping'])
    expect(frames.filter((f) => f.kind === 'response').every((f) => typeof f.latencyMs === 'number' && f.requestSeq !== undefined)).toBe(
      true,
    )

    const calls = ofType(events, 'call') as CallEvent[]
    expect(calls.map((c) => c.tool)).toEqual(['get_products', 'list_creative_formats'])
    // The demo is an AdCP seller: its calls are read in AdCP's terms, as Parallax's own calls are.
    expect(calls.map((c) => [c.adcp?.recognised, c.adcp?.findings])).toEqual([
      ['it offers get_adcp_capabilities', []],
      ['it offers get_adcp_capabilities', []],
    ])
    expect(calls[0].lint.map((l) => l.field)).toEqual(['task_id'])
    expect(calls[0].response).toEqual(direct.call)
    const findings = (ofType(events, 'log') as LogEvent[]).filter((l) => l.about === 'host')
    expect(findings.map((f) => f.text).join('\n')).toMatch(/get_products.*task_id.*protocol envelope/)
    const ping = ofType(events, 'keepalive')[0] as KeepaliveEvent
    expect(ping).toMatchObject({ probe: 'ping', ok: true, note: expect.stringContaining('sent by the host') })
    expect(ofType(events, 'conversation').map((c) => c.message.role)).toEqual(['user', 'agent', 'user', 'agent'])

    // The recording is a normal one: replayed against the same server, turn by turn, no difference.
    const parallax = cliRunner(data)
    const replay = await parallax('replay', recording, '--target', 'demo:tools', '--json')
    expect(replay.code, replay.stderr).toBe(0)
    const report = JSON.parse(replay.stdout) as { problems: unknown[]; turns: { status: string }[] }
    expect(report.problems).toEqual([])
    expect(report.turns.map((t) => t.status)).toEqual(['same', 'same'])

    // So is the session kept in the data folder, exported: regression tests from real traffic.
    const exported = join(data, 'exported.jsonl')
    const exporting = await parallax('sessions', 'export', summary.id, '--out', exported)
    expect(exporting.code, exporting.stderr).toBe(0)
    const again = await parallax('replay', exported, '--target', 'demo:tools', '--json')
    expect(again.code, again.stderr).toBe(0)
    expect((JSON.parse(again.stdout) as { turns: { status: string }[] }).turns.map((t) => t.status)).toEqual(['same', 'same'])
  }, 60_000)

  it('an AdCP seller whose answer breaks the release: the tapped call has the finding with its schema path, said as the server’s', async () => {
    const data = dataFolder()
    const { host } = await mcpHost(tapped(data, serverCommand(fixtureServer('adcpSeller'), 'legacy'), ['--name', 'seller']))
    await host.listTools()
    await host.callTool({ name: 'list_creative_formats', arguments: {} })
    await host.close()
    await expect.poll(() => tapSessions(data)[0]?.summary.ended, { timeout: 10_000 }).toBe('closed')
    const [{ events }] = tapSessions(data)
    const [call] = ofType(events, 'call') as CallEvent[]
    expect(call.adcp?.findings).toEqual([expect.objectContaining({ phase: 'response', instancePath: '/formats/0/format_id' })])
    expect(ofType(events, 'adcp')).toMatchObject([{ release: '3.0.6', task: 'list_creative_formats' }])
    const said = (ofType(events, 'log') as LogEvent[]).filter((l) => l.about === 'server').map((l) => l.text)
    expect(said).toContainEqual(
      expect.stringMatching(/^AdCP 3\.0\.6 list_creative_formats response: \/formats\/0\/format_id must be object/),
    )
  }, 30_000)

  it('an ACP editor gets what it gets without the tap; the handshake, session and turn are the observed connection’s', async () => {
    const data = dataFolder()
    const agent = serverCommand(fixtureAgent('stableAgent'), 'basic')
    const run = async (command: { command: string; args: string[]; env?: Record<string, string> }) => {
      const editor = acpHost(command)
      const init = await editor.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
        clientInfo: { name: 'test-editor', version: '0.9.0' },
      })
      const session = await editor.agent.request('session/new', { cwd: data, mcpServers: [] })
      const answer = await editor.agent.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: 'hello' }],
      })
      editor.child.stdin.end()
      await editor.exited
      return { init, answer, updates: editor.updates.map((u) => (u as { update: { sessionUpdate: string } }).update.sessionUpdate) }
    }
    const direct = await run({ command: agent[0], args: agent.slice(1) })
    const through = await run(tapped(data, agent, ['--name', 'stable']))
    expect(through).toEqual(direct)

    await expect.poll(() => tapSessions(data)[0]?.summary.ended, { timeout: 10_000 }).toBeTruthy()
    const [{ summary, events }] = tapSessions(data)
    expect(summary).toMatchObject({ protocol: 'acp', owner: { observed: { host: { name: 'test-editor' } } } })
    const handshakes = ofType(events, 'handshake') as Extract<HandshakeEvent, { protocol: 'acp' }>[]
    expect(handshakes.at(-1)).toMatchObject({ observed: true, clientInfo: { name: 'test-editor' }, session: { how: 'new', cwd: data } })
    const conversation = ofType(events, 'conversation').map((c) => c.message)
    expect(conversation[0]).toMatchObject({ role: 'user', content: 'hello', metadata: { turn: 1 } })
    expect(conversation.at(-1)).toMatchObject({ role: 'agent', metadata: { kind: 'status', state: direct.answer.stopReason } })
    expect(conversation.some((m) => m.metadata?.kind === 'tool')).toBe(true)
  }, 60_000)

  it('the server’s exit code and the signal that ends it are the tap’s; a server that cannot start is said so', async () => {
    const data = dataFolder()
    const exitWith = (code: number) => [process.execPath, '-e', `process.stdin.once('data', () => process.exit(${code}))`]
    const child = spawn(process.execPath, [CLI, 'tap', '--', ...exitWith(3)], { env: { ...process.env, PARALLAX_DATA_DIR: data } })
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}\n')
    expect(await new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })))).toEqual({
      code: 3,
      signal: null,
    })

    const sleeper = spawn(process.execPath, [CLI, 'tap', '--', process.execPath, '-e', 'setInterval(() => {}, 1000)'], {
      env: { ...process.env, PARALLAX_DATA_DIR: data },
    })
    await expect.poll(() => tapSessions(data).length, { timeout: 10_000 }).toBe(2)
    sleeper.kill('SIGTERM')
    expect(await new Promise((resolve) => sleeper.once('close', (code, signal) => resolve({ code, signal })))).toEqual({
      code: null,
      signal: 'SIGTERM',
    })

    const missing = await cliRunner(data)('tap', '--', '/no/such/server')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('/no/such/server')
    expect(missing.stdout).toBe('')
  }, 30_000)

  it('a tap killed outright takes its server with it: nothing is left running', async () => {
    const data = dataFolder()
    const pidFile = join(data, 'server.pid')
    const server = [
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
    ]
    const tap = spawn(process.execPath, [CLI, 'tap', '--', ...server], { env: { ...process.env, PARALLAX_DATA_DIR: data } })
    await expect.poll(() => existsSync(pidFile), { timeout: 10_000 }).toBe(true)
    const serverPid = Number(readFileSync(pidFile, 'utf8'))
    expect(isRunning(serverPid)).toBe(true)
    tap.kill('SIGKILL')
    await expect.poll(() => isRunning(serverPid), { timeout: 10_000 }).toBe(false)
  }, 30_000)

  it('a data folder Parallax cannot write: relaying goes on, and the failure is said once on stderr', async () => {
    const data = dataFolder()
    writeFileSync(join(data, 'sessions'), 'a file where the sessions folder should be')
    const server = serverCommand(DEMO_STDIO, 'tools')
    const through = await mcpSession(tapped(data, server))
    expect(through.tools.tools.length).toBeGreaterThan(0)
    expect(through.call.isError).toBeFalsy()
    expect(through.stderr.match(/parallax tap: cannot keep the session/g)).toHaveLength(1)
  }, 30_000)

  it('hold in flight: a held call waits for its release (edited here), a dropped one never reaches the server, the rest pass', async () => {
    const data = dataFolder()
    const server = serverCommand(fixtureServer('protocolFieldTool'))
    const { host } = await mcpHost(tapped(data, server, ['--hold-tool', 'get_products', '--hold-timeout', '60000']))
    await host.listTools() // not held: another method
    const session = () => tapSessions(data)[0]
    const holds = () => ofType(session().events, 'hold') as HoldEvent[]
    const control = () => join(data, 'sessions', session().summary.id, 'control.jsonl')

    const first = host.callTool({ name: 'get_products', arguments: { brief: 'as sent' } }).catch((e: Error) => e)
    await expect.poll(() => holds().filter((h) => h.state === 'held').length, { timeout: 10_000 }).toBe(1)
    const held = holds().find((h) => h.state === 'held')!
    expect(held).toMatchObject({ direction: 'out', method: 'tools/call', holdId: 1 })
    const edited = { ...(held.message as object), params: { name: 'get_products', arguments: { brief: 'edited' } } }
    appendFileSync(control(), `${JSON.stringify({ release: 1, message: edited })}\n`)
    const answer = (await first) as { structuredContent?: { echo?: unknown } } | Error
    // The server saw the edited arguments (it echoes them); the SDK refuses its structured content, which it echoes.
    const echoed = answer instanceof Error ? answer.message : JSON.stringify(answer)
    const sent = () =>
      ofType(session().events, 'frame')
        .filter((f) => f.method === 'tools/call' && f.direction === 'out')
        .map((f) => (f.payload as { params: { arguments: unknown } }).params.arguments)
    await expect.poll(sent, { timeout: 5_000 }).toEqual([{ brief: 'edited' }])
    expect(echoed).toBeTruthy()
    expect(holds().find((h) => h.state === 'released')).toMatchObject({ holdId: 1, by: 'user', edited: true })

    const second = host
      .callTool({ name: 'get_products', arguments: { brief: 'dropped' } }, undefined, { timeout: 1500 })
      .catch((e: Error) => e)
    await expect.poll(() => holds().filter((h) => h.state === 'held').length, { timeout: 10_000 }).toBe(2)
    appendFileSync(control(), `${JSON.stringify({ drop: 2 })}\n`)
    expect(await second).toBeInstanceOf(Error)
    expect(holds().find((h) => h.state === 'dropped')).toMatchObject({ holdId: 2 })
    await host.close()
  }, 60_000)
})
