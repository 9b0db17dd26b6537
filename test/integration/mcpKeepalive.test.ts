import { builtInDemos } from '../../shared/demo/builtIns'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder, processGone } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

let engine: Engine
let recorder: EventRecorder
const temp: string[] = []

function start(defaults: ConstructorParameters<typeof Engine>[0]['defaults'] = {}) {
  engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 200, reconnectBaseDelayMs: 50, reconnectMaxDelayMs: 200, ...defaults },
  })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const states = (id: string) => recorder.of('connection', id).map((e) => e.state)

describe('keepalive', () => {
  it('probes a prompt-only server with ping and keeps it healthy', async () => {
    start()
    const connection = await engine.openTarget('demo:prompts')
    await recorder.waitForCount((e) => e.type === 'keepalive' && e.connectionId === connection.id, 4, 20_000)
    const probes = recorder.of('keepalive', connection.id)
    expect(probes.every((p) => p.probe === 'ping' && p.ok && p.health === 'healthy' && p.intervalMs === 200)).toBe(true)
    expect(probes.every((p) => p.rttMs > 0)).toBe(true)
    expect(recorder.of('frame', connection.id).some((f) => f.method === 'tools/list')).toBe(false)
    expect(states(connection.id)).toEqual(['connecting', 'connected'])
  })

  it('probes a tool server with tools/list', async () => {
    start()
    const connection = await engine.openTarget('demo:tools')
    await recorder.waitForCount((e) => e.type === 'keepalive' && e.connectionId === connection.id, 2, 20_000)
    expect(recorder.of('keepalive', connection.id).map((p) => p.probe)).toEqual(['tools/list', 'tools/list'])
  })

  it('reconnects a server that died, each attempt visible, and carries on', async () => {
    start()
    const dir = mkdtempSync(join(tmpdir(), 'parallax-dying-'))
    temp.push(dir)
    const connection = await engine.createConnection(fixtureTarget('dying', ['once', join(dir, 'died')]))
    expect(await connection.open()).toBe(true)
    const firstPid = recorder.of('connection', connection.id).find((e) => e.state === 'connected')!.pid!
    const back = await recorder.waitFor(
      (e): e is ConnectionEvent =>
        e.type === 'connection' && e.connectionId === connection.id && e.state === 'connected' && e.attempt !== undefined,
      15_000,
    )
    const reconnecting = recorder.of('connection', connection.id).filter((e) => e.state === 'reconnecting')
    expect(reconnecting[0]).toMatchObject({
      attempt: 1,
      maxAttempts: 5,
      delayMs: 50,
      reason: 'server process exited with code 3',
      cause: { transport: 'stdio', exit: { code: 3, signal: null }, stderr: ['fixture-dying: exiting now'] },
    })
    expect(back.reason).toMatch(/reconnected on attempt 1 of 5/)
    expect(back.pid).not.toBe(firstPid)
    expect(processGone(firstPid)).toBe(true)
    expect(recorder.of('log', connection.id).some((l) => l.source === 'stderr' && l.text.includes('exiting now'))).toBe(true)
    // Healthy again: the new process answers probes.
    await recorder.waitFor((e) => e.type === 'keepalive' && e.connectionId === connection.id && e.seq > back.seq && e.ok)
  })

  it('gives up after the configured number of attempts with backoff, and says why', async () => {
    start({ reconnectAttempts: 3 })
    const dir = mkdtempSync(join(tmpdir(), 'parallax-dying-'))
    temp.push(dir)
    const connection = await engine.createConnection(fixtureTarget('dying', ['then-gone', join(dir, 'died')]))
    expect(await connection.open()).toBe(true)
    const failed = await recorder.waitFor(
      (e): e is ConnectionEvent => e.type === 'connection' && e.connectionId === connection.id && e.state === 'failed',
      20_000,
    )
    const attempts = recorder.of('connection', connection.id).filter((e) => e.state === 'reconnecting')
    expect(attempts.map((a) => [a.attempt, a.maxAttempts, a.delayMs])).toEqual([
      [1, 3, 50],
      [2, 3, 100],
      [3, 3, 200],
    ])
    expect(failed.reason).toMatch(/gave up after 3 reconnect attempts/)
    const pids = recorder.of('connection', connection.id).flatMap((e) => (e.pid ? [e.pid] : []))
    expect(pids.length).toBeGreaterThanOrEqual(1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(pids.every(processGone)).toBe(true)
  })

  it('bounds a flapping server too: attempts reset only once a probe is answered', async () => {
    start({ reconnectAttempts: 2, keepaliveIntervalMs: 5_000 })
    const connection = await engine.createConnection(fixtureTarget('dying', ['always']))
    expect(await connection.open()).toBe(true)
    const failed = await recorder.waitFor(
      (e): e is ConnectionEvent => e.type === 'connection' && e.connectionId === connection.id && e.state === 'failed',
      20_000,
    )
    // Each reconnect succeeded, then the server died again before any probe: attempt 1, then 2, then give up.
    expect(states(connection.id)).toEqual(['connecting', 'connected', 'reconnecting', 'connected', 'reconnecting', 'connected', 'failed'])
    expect(failed.reason).toMatch(/gave up after 2 reconnect attempts/)
  })

  it('stops everything on close: no child process and no more probes', async () => {
    start()
    const connection = await engine.openTarget('demo:prompts')
    const connected = await recorder.waitFor((e): e is ConnectionEvent => e.type === 'connection' && e.state === 'connected', 20_000)
    await recorder.waitFor((e) => e.type === 'keepalive')
    await engine.execute('connections.close', { connectionId: connection.id })
    expect(states(connection.id).at(-1)).toBe('closed')
    const count = recorder.events.length
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(recorder.events.length).toBe(count)
    expect(processGone(connected.pid!)).toBe(true)
  })
})
