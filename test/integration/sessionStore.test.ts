import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { decodeBacklog, frameOfRow, type EngineEvent } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { approveAll } from '../fixtures/targets'

const dirs: string[] = []
const engines: Engine[] = []
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function engineIn(dataDir: string): Engine {
  const engine = new Engine({
    host: 'web',
    dataDir,
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 3_600_000 },
  })
  engines.push(engine)
  return engine
}

async function session(engine: Engine, calls: number): Promise<string> {
  const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:tools' })
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
  for (let i = 0; i < calls; i++)
    await engine.invoke('tools.call', { connectionId, tool: 'get_products', arguments: { buying_mode: 'brief', brief: `brief ${i}` } })
  return connectionId
}

describe('sessions kept on disk', () => {
  it('every event of a connection is in its session: read back by position, by filter, found by text, listed, saved as a recording', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-store-'))
    dirs.push(dataDir)
    const engine = engineIn(dataDir)
    const connectionId = await session(engine, 20)

    const page = decodeBacklog(await engine.invoke('events.backlog', { afterSeq: 0 }))
    expect(page.more).toBe(false)
    const frames = page.lists?.[connectionId]
    expect(frames?.frames).toBeGreaterThan(40)
    const rows = await engine.invoke('frames.rows', { connectionId, from: 0, count: 5000 })
    const decoded = decodeBacklog({
      frames: rows.rows,
      logs: { shapes: [], seq: [], ts: [], shape: [], frameSeq: [] },
      events: [],
      lastSeq: 0,
      more: false,
    })
    expect(decoded.frames.seq.length).toBe(frames!.frames)
    const first = frameOfRow(decoded.frames, 0)
    expect(first.connectionId).toBe(connectionId)

    const calls = await engine.invoke('frames.find', {
      connectionId,
      filter: { text: 'tools/call', direction: 'out', kind: '', hideProbes: false, wire: '' },
      from: 0,
      count: 100,
    })
    expect(calls.total).toBe(20)
    expect(calls.positions).toHaveLength(20)

    const found = await engine.invoke('sessions.search', { connectionId, text: 'brief 17', from: 0 })
    expect(found.hits.length).toBeGreaterThan(0)
    expect(found.done).toBe(true)

    const listed = await engine.invoke('sessions.list', {})
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ targetId: 'demo:tools', running: true })
    expect(listed[0].events).toBeGreaterThan(50)

    const saved = await engine.invoke('sessions.export', { sessionId: listed[0].id })
    const text = readFileSync(join(dataDir, 'recordings', `${saved.name}.jsonl`), 'utf8')
    expect(text.trim().split('\n')).toHaveLength(saved.events + 1)
  })

  it('finds the frames of a range of time (a range brushed on the Timeline), with the rest of the filter', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-store-'))
    dirs.push(dataDir)
    const engine = engineIn(dataDir)
    const connectionId = await session(engine, 10)
    const all = decodeBacklog({
      frames: (await engine.invoke('frames.rows', { connectionId, from: 0, count: 5000 })).rows,
      logs: { shapes: [], seq: [], ts: [], shape: [], frameSeq: [] },
      events: [],
      lastSeq: 0,
      more: false,
    }).frames
    const frames = Array.from({ length: all.seq.length }, (_, i) => frameOfRow(all, i))
    const calls = frames.filter((f) => f.method === 'tools/call' && f.direction === 'out')
    // From the 4th call's frame to the 7th's, both included.
    const range = { from: calls[3].ts, to: calls[6].ts }
    const filter = { text: '', direction: '' as const, kind: '', hideProbes: false, wire: '' as const }
    const inRange = await engine.invoke('frames.find', { connectionId, filter: { ...filter, ...range }, from: 0, count: 1000 })
    const expected = frames.map((f, i) => [f, i] as const).filter(([f]) => f.ts >= range.from && f.ts <= range.to)
    expect(inRange.total).toBe(expected.length)
    expect(inRange.positions).toEqual(expected.map(([, i]) => i))
    expect(inRange.total).toBeLessThan(frames.length)

    const callsInRange = await engine.invoke('frames.find', {
      connectionId,
      filter: { ...filter, text: 'tools/call', direction: 'out', ...range },
      from: 0,
      count: 1000,
    })
    expect(callsInRange.total).toBe(4)
    // Only a start: every frame from then on.
    const after = await engine.invoke('frames.find', { connectionId, filter: { ...filter, from: calls[8].ts }, from: 0, count: 1000 })
    expect(after.total).toBe(frames.filter((f) => f.ts >= calls[8].ts).length)
  })

  it('outlives the engine: reopened read-only after a restart, said closed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-store-'))
    dirs.push(dataDir)
    const first = engineIn(dataDir)
    await session(first, 3)
    await first.dispose()
    engines.splice(engines.indexOf(first), 1)

    const second = engineIn(dataDir)
    const [kept] = await second.invoke('sessions.list', {})
    expect(kept).toMatchObject({ ended: 'closed', running: false, targetName: 'Demo media-sales agent' })
    const page = decodeBacklog(await second.invoke('sessions.backlog', { sessionId: kept.id, afterSeq: 0 }))
    const view = `session:${kept.id}`
    expect(page.events.every((e: EngineEvent) => e.connectionId === view)).toBe(true)
    expect(page.events.some((e) => e.type === 'handshake')).toBe(true)
    expect(page.lists?.[view]?.frames).toBe(kept.frames)
    expect(readdirSync(join(dataDir, 'sessions'))).toContain(kept.id)
  })

  it('keeps the folder within its size: the oldest finished sessions go first, never a running one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-store-'))
    dirs.push(dataDir)
    const first = engineIn(dataDir)
    await session(first, 1)
    await first.dispose()
    engines.splice(engines.indexOf(first), 1)

    const second = engineIn(dataDir)
    await session(second, 1)
    const before = await second.invoke('sessions.list', {})
    expect(before.filter((s) => s.running)).toHaveLength(1)
    expect(before.filter((s) => !s.running).length).toBeGreaterThan(0)
    // Smaller than any session: every finished one goes; the running one stays, whatever its size.
    const removed = second.events.store.setRetention(1)
    expect(removed.sort()).toEqual(
      before
        .filter((s) => !s.running)
        .map((s) => s.id)
        .sort(),
    )
    const after = await second.invoke('sessions.list', {})
    expect(after.map((s) => s.running)).toEqual([true])
    expect((await second.invoke('sessions.retention', {})).bytes).toBe(1)
  })
})
