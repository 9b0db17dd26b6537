import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionEvent, EngineEvent, HoldEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { WrittenTap } from '../fixtures/tapSession'

// Hold in flight, the engine's side: what the user decides goes to the tap of an observed session as one
// line of its control.jsonl; the tap's holds come back as hold events, which the engine follows.

const dirs: string[] = []
const engines: Engine[] = []
const taps: WrittenTap[] = []
afterEach(async () => {
  for (const tap of taps.splice(0)) tap.end()
  await Promise.all(engines.splice(0).map((engine) => engine.dispose()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function followed() {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-tap-holds-'))
  dirs.push(dataDir)
  const engine = new Engine({ host: 'web', dataDir })
  engines.push(engine)
  const recorder = new EventRecorder(engine)
  const tap = new WrittenTap(dataDir)
  taps.push(tap)
  tap.handshake()
  tap.log.store.flush()
  const connected = await recorder.waitFor(
    (e): e is ConnectionEvent => e.type === 'connection' && e.owner.purpose === 'tap' && e.state === 'connected',
  )
  return { engine, recorder, tap, connectionId: connected.connectionId }
}

const BREAKPOINTS = { on: true, methods: [], tools: ['get_products'], directions: ['out' as const], timeoutMs: 20_000 }

describe('hold in flight on an observed connection', () => {
  it('sends the breakpoints and each decision to the tap as a line of its control.jsonl, private to the user', async () => {
    const { engine, recorder, tap, connectionId } = await followed()

    expect(await engine.execute('tap.breakpoints', { connectionId, breakpoints: BREAKPOINTS })).toEqual({ sent: true })
    expect(tap.controlLines()).toEqual([{ breakpoints: BREAKPOINTS }])
    expect(statSync(join(tap.log.sessionDir()!, 'control.jsonl')).mode & 0o777).toBe(0o600)

    // The tap holds two calls, as it says in its session: the app follows that.
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_products', arguments: { brief: 'b' } } })
    tap.hold({ state: 'breakpoints', breakpoints: BREAKPOINTS })
    tap.hold({ state: 'held', holdId: 1, direction: 'out', method: 'tools/call', message: call(2), releaseAt: Date.now() + 20_000 })
    tap.hold({ state: 'held', holdId: 2, direction: 'out', method: 'tools/call', message: call(3), releaseAt: Date.now() + 20_000 })
    const held = (e: EngineEvent): e is HoldEvent => e.type === 'hold' && e.connectionId === connectionId && e.state === 'held'
    await recorder.waitForCount(held, 2)
    expect(recorder.of('hold', connectionId)[1]).toMatchObject({ state: 'held', holdId: 1, method: 'tools/call', message: call(2) })

    const edited = { ...call(2), params: { name: 'get_products', arguments: { brief: 'edited' } } }
    await engine.execute('tap.decide', { connectionId, holdId: 1, action: 'release', message: edited })
    await engine.execute('tap.decide', { connectionId, holdId: 2, action: 'drop' })
    expect(tap.controlLines()).toEqual([{ breakpoints: BREAKPOINTS }, { release: 1, message: edited }, { drop: 2 }])

    // Once the tap says it released a message, it is not held: deciding again is refused, nothing is written.
    tap.hold({ state: 'released', holdId: 1, direction: 'out', by: 'user', edited: true })
    await recorder.waitFor((e) => e.type === 'hold' && e.connectionId === connectionId && e.state === 'released')
    await expect(engine.execute('tap.decide', { connectionId, holdId: 1, action: 'drop' })).rejects.toMatchObject({
      code: 'not-found',
      message: 'message 1 is not held now: it was released, dropped or timed out',
    })
    await expect(engine.execute('tap.decide', { connectionId, holdId: 9, action: 'release' })).rejects.toMatchObject({ code: 'not-found' })
    expect(tap.controlLines()).toHaveLength(3)
  }, 30_000)

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
