import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionEvent, EngineEvent, FrameEvent, HandshakeEvent, LogEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startTapHost, type TapHost } from '../fixtures/tapHosts'

// A host runs its server through `parallax tap` with the app's data folder; the app (an engine of a UI host)
// shows the session live as an observed connection of its own, analysed again there, and sends nothing into it.

const dirs: string[] = []
const engines: Engine[] = []
const hosts: TapHost[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()))
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-tap-follow-'))
  dirs.push(dir)
  return dir
}

function appOn(dataDir: string): { engine: Engine; recorder: EventRecorder } {
  const engine = new Engine({ host: 'web', dataDir })
  engines.push(engine)
  return { engine, recorder: new EventRecorder(engine) }
}

function host(dataDir: string, env: Record<string, string> = {}): TapHost {
  const started = startTapHost(dataDir, undefined, undefined, env)
  hosts.push(started)
  return started
}

const isTap = (e: EngineEvent): e is ConnectionEvent => e.type === 'connection' && e.owner.purpose === 'tap'
const connectedTap = (e: EngineEvent): e is ConnectionEvent => isTap(e) && e.state === 'connected'

describe('a tapped session in a running app', () => {
  it('appears live as an observed connection with the host, its frames, the handshake as the host made it and a finding about the host', async () => {
    const dataDir = dataFolder()
    const { engine, recorder } = appOn(dataDir)
    const tapped = host(dataDir)
    const ready = await tapped.ready
    expect(ready.tools).toEqual(['get_products'])

    const connected = await recorder.waitFor(connectedTap, 15_000)
    const id = connected.connectionId
    expect(id).toMatch(/^tap:/)
    expect(connected.targetName).toBe('fields')
    expect(connected.owner.observed).toMatchObject({ via: 'stdio', host: { name: 'fixture-host', version: '4.2.0' } })
    expect(connected.owner.observed?.command).toContain('protocolFieldTool.ts')

    const finding = await recorder.waitFor(
      (e): e is LogEvent => e.type === 'log' && e.connectionId === id && e.about === 'host' && /adcp_version/.test(e.text),
    )
    expect(finding).toMatchObject({ oddity: true, level: 'warn' })
    const handshake = recorder.of('handshake', id)[0] as HandshakeEvent & { clientInfo?: unknown; observed?: true }
    expect(handshake).toMatchObject({ observed: true, clientInfo: { name: 'fixture-host', version: '4.2.0' } })
    const methods = () => (recorder.of('frame', id) as FrameEvent[]).map((f) => `${f.direction} ${f.method}`)
    expect(methods()).toEqual(
      expect.arrayContaining(['out initialize', 'in initialize', 'out tools/list', 'out tools/call', 'in tools/call']),
    )
    // The engine's own numbers: an answer names its request by this engine's seq.
    const answer = (recorder.of('frame', id) as FrameEvent[]).find((f) => f.direction === 'in' && f.method === 'tools/call')!
    expect(recorder.events.find((e) => e.seq === answer.requestSeq)).toMatchObject({
      type: 'frame',
      method: 'tools/call',
      direction: 'out',
    })

    // Live: what the host does now appears as it does it.
    await tapped.ping()
    await recorder.waitFor((e) => e.type === 'keepalive' && e.connectionId === id && e.probe === 'ping')

    // History lists the tap's own session (host `tap`), never the app's copy of it.
    const listed = await engine.invoke('sessions.list', {})
    const taps = listed.filter((s) => s.owner?.purpose === 'tap')
    expect(taps).toHaveLength(1)
    expect(taps[0]).toMatchObject({ host: 'tap', targetName: 'fields' })

    await tapped.close()
    const ended = await recorder.waitFor((e): e is ConnectionEvent => isTap(e) && e.state === 'closed', 15_000)
    expect(ended.reason).toBe('the server exited with code 0')
    expect(recorder.of('frame', id).length).toBeGreaterThanOrEqual(7)
  }, 60_000)

  it('follows from its beginning a session a tap started before the app opened', async () => {
    const dataDir = dataFolder()
    const tapped = host(dataDir)
    await tapped.ready
    const { recorder } = appOn(dataDir)
    const connected = await recorder.waitFor(connectedTap, 15_000)
    const frames = () => recorder.of('frame', connected.connectionId) as FrameEvent[]
    await recorder.waitFor(
      (e) => e.type === 'frame' && e.connectionId === connected.connectionId && e.method === 'tools/call' && e.direction === 'in',
    )
    expect(frames().map((f) => `${f.direction} ${f.method}`)).toEqual([
      'out initialize',
      'in initialize',
      'out notifications/initialized',
      'out tools/list',
      'in tools/list',
      'out tools/call',
      'in tools/call',
    ])
  }, 60_000)

  it('says a session whose tap was killed was cut short, and stops following it', async () => {
    const dataDir = dataFolder()
    const { engine, recorder } = appOn(dataDir)
    const tapped = host(dataDir)
    await tapped.ready
    const connected = await recorder.waitFor(connectedTap, 15_000)
    const tapPid = connected.owner.observed!.pid!
    process.kill(tapPid, 'SIGKILL')
    const failed = await recorder.waitFor((e): e is ConnectionEvent => isTap(e) && e.state === 'failed', 15_000)
    expect(failed.reason).toMatch(/^cut short: parallax tap stopped without ending this session/)
    expect(engine.taps!.isFollowed(connected.connectionId)).toBe(false)
  }, 60_000)

  it('stops following when the app closes the connection, while the host and server go on; its copy goes with the app', async () => {
    const dataDir = dataFolder()
    const { engine, recorder } = appOn(dataDir)
    const tapped = host(dataDir)
    await tapped.ready
    const connected = await recorder.waitFor(connectedTap, 15_000)
    const id = connected.connectionId
    await recorder.waitFor((e) => e.type === 'frame' && e.connectionId === id && e.method === 'tools/call' && e.direction === 'in')

    expect(await engine.invoke('connections.close', { connectionId: id })).toEqual({ closed: true })
    const closed = await recorder.waitFor((e): e is ConnectionEvent => isTap(e) && e.state === 'closed')
    expect(closed.reason).toMatch(/no longer followed in this app/)
    const framesThen = recorder.of('frame', id).length
    await tapped.ping() // the host's session goes on
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(recorder.of('frame', id)).toHaveLength(framesThen)

    const mirror = engine.events.store.sessionOf(id)!
    expect(existsSync(join(dataDir, 'sessions', mirror))).toBe(true)
    await engine.dispose()
    engines.splice(engines.indexOf(engine), 1)
    expect(readdirSync(join(dataDir, 'sessions'))).not.toContain(mirror)
  }, 60_000)

  it('refuses every command that would send into an observed connection, saying why', async () => {
    const dataDir = dataFolder()
    const { engine, recorder } = appOn(dataDir)
    const tapped = host(dataDir)
    await tapped.ready
    const connected = await recorder.waitFor(connectedTap, 15_000)
    const connectionId = connected.connectionId
    const call = await recorder.waitFor(
      (e): e is FrameEvent => e.type === 'frame' && e.connectionId === connectionId && e.method === 'tools/call' && e.direction === 'out',
    )
    const framesBefore = recorder.of('frame', connectionId).length
    const refusals: [string, Record<string, unknown>][] = [
      ['tools.call', { tool: 'get_products', arguments: { brief: 'x' } }],
      ['connections.request', { method: 'tools/list' }],
      ['conversation.send', { turn: { tool: 'get_products', arguments: { brief: 'x' } } }],
      ['requests.resend', { seq: call.seq }],
      ['connections.reconnect', {}],
      ['connections.refresh', {}],
      ['connections.probe', {}],
      ['connections.setLogLevel', { level: 'debug' }],
      ['serverRequests.answer', { id: 1, answer: { reject: 'no' } }],
      ['hooks.load', { path: '/tmp/hooks.json' }],
    ]
    for (const [command, input] of refusals)
      await expect(engine.execute(command, { connectionId, ...input }), command).rejects.toMatchObject({
        code: 'invalid-input',
        message: 'fields is observed through parallax tap: Parallax sends nothing into it',
      })
    await new Promise((resolve) => setTimeout(resolve, 700))
    expect(recorder.of('frame', connectionId)).toHaveLength(framesBefore)
    expect(
      recorder.events.some(
        (e) => e.type === 'connection' && e.connectionId === connectionId && e.state !== 'connected' && e.state !== 'connecting',
      ),
    ).toBe(false)
  }, 60_000)

  it('takes a large frame whole from the tap’s payloads: the app keeps it whole too, and reads it again whole', async () => {
    const dataDir = dataFolder()
    const { engine, recorder } = appOn(dataDir)
    const tapped = host(dataDir, { TAP_HOST_BRIEF_BYTES: '1500000' })
    await tapped.ready
    const call = await recorder.waitFor(
      (e): e is FrameEvent => e.type === 'frame' && e.connectionId.startsWith('tap:') && e.method === 'tools/call' && e.direction === 'out',
      20_000,
    )
    expect(call.truncated?.file).toMatch(/^payloads\.bin#/)
    const whole = await engine.invoke('frames.export', { connectionId: call.connectionId, seq: call.seq })
    const sent = JSON.parse(whole.text) as { params: { arguments: { brief: string } } }
    expect(sent.params.arguments.brief).toBe('b'.repeat(1_500_000))
    // The analysis had the whole message too: its finding about the host's arguments.
    await recorder.waitFor(
      (e) => e.type === 'log' && e.connectionId === call.connectionId && e.about === 'host' && /adcp_version/.test(e.text),
    )
  }, 60_000)
})
