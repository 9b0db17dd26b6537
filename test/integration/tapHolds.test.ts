import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionEvent, EngineEvent, HoldEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { fixtureServer, mcpHost, serverCommand, tapped } from '../fixtures/tapHosts'

// Hold in flight, the engine's side: what the user decides goes to the tap of an observed session as one
// line of its control.jsonl; the tap holds and says so, and the engine follows. A real host (the MCP SDK's
// client) runs a real server through a real `parallax tap`.

const dirs: string[] = []
const engines: Engine[] = []
const hosts: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})))
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function followed() {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-tap-holds-'))
  dirs.push(dataDir)
  const engine = new Engine({ host: 'web', dataDir })
  engines.push(engine)
  const recorder = new EventRecorder(engine)
  const { host } = await mcpHost(tapped(dataDir, serverCommand(fixtureServer('protocolFieldTool')), ['--name', 'held']))
  hosts.push(host)
  const connected = await recorder.waitFor(
    (e): e is ConnectionEvent => e.type === 'connection' && e.owner.purpose === 'tap' && e.state === 'connected',
  )
  const sessionDir = () => {
    const sessions = join(dataDir, 'sessions')
    const summary = (name: string) => JSON.parse(readFileSync(join(sessions, name, 'session.json'), 'utf8')) as { host: string }
    return join(
      sessions,
      readdirSyncSafe(sessions).find((name) => summary(name).host === 'tap')!,
    )
  }
  const controlLines = () =>
    readFileSync(join(sessionDir(), 'control.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown)
  return { engine, recorder, host, connectionId: connected.connectionId, sessionDir, controlLines }
}

const BREAKPOINTS = { on: true, methods: [], tools: ['get_products'], directions: ['out' as const], timeoutMs: 20_000 }

describe('hold in flight on an observed connection', () => {
  it('sends the breakpoints and each decision to the tap, which holds, releases (edited) and drops as told', async () => {
    const { engine, recorder, host, connectionId, sessionDir, controlLines } = await followed()
    const holds = (state: HoldEvent['state']) => (e: EngineEvent) =>
      e.type === 'hold' && e.connectionId === connectionId && e.state === state

    expect(await engine.execute('tap.breakpoints', { connectionId, breakpoints: BREAKPOINTS })).toEqual({ sent: true })
    expect(controlLines()).toEqual([{ breakpoints: BREAKPOINTS }])
    expect(statSync(join(sessionDir(), 'control.jsonl')).mode & 0o777).toBe(0o600)
    await recorder.waitFor(holds('breakpoints'))

    // The host calls twice: the tap holds both, and the app follows that.
    const call = (brief: string) =>
      host.request({ method: 'tools/call', params: { name: 'get_products', arguments: { brief } } }, CallToolResultSchema, {
        timeout: 20_000,
      })
    const first = call('as sent')
    const second = call('to drop').then(
      () => 'answered',
      () => 'never answered',
    )
    await recorder.waitForCount(holds('held'), 2)
    const held = recorder.of('hold', connectionId).filter((e) => e.state === 'held')
    expect(held.map((e) => [e.holdId, e.method, e.direction])).toEqual([
      [1, 'tools/call', 'out'],
      [2, 'tools/call', 'out'],
    ])

    const edited = { ...(held[0].message as object), params: { name: 'get_products', arguments: { brief: 'edited' } } }
    await engine.execute('tap.decide', { connectionId, holdId: 1, action: 'release', message: edited })
    expect((await first).structuredContent).toMatchObject({ echo: { brief: 'edited' } })
    await engine.execute('tap.decide', { connectionId, holdId: 2, action: 'drop' })
    expect(controlLines()).toEqual([{ breakpoints: BREAKPOINTS }, { release: 1, message: edited }, { drop: 2 }])
    await recorder.waitFor(holds('dropped'))
    await engine.execute('tap.breakpoints', { connectionId, breakpoints: { ...BREAKPOINTS, on: false } })
    expect(await Promise.race([second, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))])).toBe('still waiting')

    // Once the tap says it released a message, it is not held: deciding again is refused, nothing is written.
    await expect(engine.execute('tap.decide', { connectionId, holdId: 1, action: 'drop' })).rejects.toMatchObject({
      code: 'not-found',
      message: 'message 1 is not held now: it was released, dropped or timed out',
    })
    await expect(engine.execute('tap.decide', { connectionId, holdId: 9, action: 'release' })).rejects.toMatchObject({ code: 'not-found' })
    expect(controlLines()).toHaveLength(4)
  }, 60_000)

  it('refuses what is not a decision a tap can take, and any connection that is not a followed tap', async () => {
    const { engine, connectionId } = await followed()
    await expect(
      engine.execute('tap.breakpoints', { connectionId, breakpoints: { ...BREAKPOINTS, directions: [] } }),
    ).rejects.toMatchObject({ code: 'invalid-input' })
    await expect(
      engine.execute('tap.breakpoints', { connectionId, breakpoints: { ...BREAKPOINTS, timeoutMs: 3_600_000 } }),
    ).rejects.toMatchObject({ code: 'invalid-input' })
    await expect(engine.execute('tap.decide', { connectionId, holdId: 1, action: 'drop', message: {} })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringContaining('only a released message can be edited'),
    })
    await expect(engine.execute('tap.breakpoints', { connectionId: 'demo:tools#1', breakpoints: BREAKPOINTS })).rejects.toMatchObject({
      code: 'not-found',
      message: '"demo:tools#1" is no session watched through parallax tap: only a tap holds messages',
    })
    await engine.execute('connections.close', { connectionId })
    await expect(engine.execute('tap.breakpoints', { connectionId, breakpoints: BREAKPOINTS })).rejects.toMatchObject({
      code: 'failed',
      message: 'held is no longer followed here (its tap ended, or the app stopped following it)',
    })
  }, 30_000)
})

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}
