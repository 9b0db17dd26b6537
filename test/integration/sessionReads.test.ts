import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { decodeFrameRows, NO_FRAMES_FILTER, type EngineEvent } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { approveAll, fixtureTarget } from '../fixtures/targets'

// What a UI reads of a long session by number and position, live and after a restart: where a frame a link names
// lies among the connection's frames, how many frames a filter's count was made among, and a past session's
// payloads and log texts whatever the numbers of the run reading them.

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

/** A session of the log fixture server: `lines` log messages asked for, each a frame and a log line. */
async function loggingSession(engine: Engine, lines: number): Promise<string> {
  const { id: targetId } = await engine.invoke('targets.save', { ...fixtureTarget('serverLogs'), id: undefined })
  const { connectionId } = await engine.invoke('connections.open', { targetId })
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
  for (let i = 0; i < lines; i++)
    await engine.invoke('tools.call', { connectionId, tool: 'log', arguments: { level: 'info', logger: 'db', data: { i } } })
  return connectionId
}

const eventsOf = async (engine: Engine, connectionId: string): Promise<EngineEvent[]> => engine.events.eventsOf(connectionId)

describe('a session read by number and position', () => {
  it('says where frames are by their numbers, and how many frames a filter counted among', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-reads-'))
    dirs.push(dataDir)
    const engine = engineIn(dataDir)
    const connectionId = await loggingSession(engine, 30)
    const frames = (await eventsOf(engine, connectionId)).filter((e) => e.type === 'frame')
    const logLine = (await eventsOf(engine, connectionId)).find((e) => e.type === 'log')!

    const { positions } = await engine.invoke('frames.locate', {
      connectionId,
      seqs: [frames[0].seq, frames[17].seq, logLine.seq, frames[frames.length - 1].seq + 1_000],
    })
    // A frame's own number: its position; any other number: the first frame after it; past the end: the count.
    expect(positions[0]).toBe(0)
    expect(positions[1]).toBe(17)
    expect(positions[2]).toBe(frames.findIndex((f) => f.seq > logLine.seq))
    expect(positions[3]).toBe(frames.length)

    const found = await engine.invoke('frames.find', {
      connectionId,
      filter: { ...NO_FRAMES_FILTER, text: 'notifications/message' },
      from: 0,
      count: 5,
    })
    expect(found.frames).toBe(frames.length)
    expect(found.total).toBe(frames.filter((f) => f.type === 'frame' && f.method === 'notifications/message').length)
    expect(found.positions.map((p) => frames[p].method)).toEqual(Array(5).fill('notifications/message'))
  })

  it('reads a past session’s payloads and log texts after a restart, its numbers past those of the run reading it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-reads-'))
    dirs.push(dataDir)
    const first = engineIn(dataDir)
    const connectionId = await loggingSession(first, 40)
    const kept = await eventsOf(first, connectionId)
    await first.dispose()
    engines.splice(engines.indexOf(first), 1)

    const second = engineIn(dataDir)
    const [session] = await second.invoke('sessions.list', {})
    const view = `session:${session.id}`
    expect(second.events.lastSeq).toBeLessThan(kept[kept.length - 1].seq) // this run has barely begun

    const lines = kept.filter((e) => e.type === 'log').slice(-3)
    const { texts } = await second.invoke('logs.texts', { connectionId: view, seqs: lines.map((l) => l.seq) })
    expect(texts).toEqual(lines.map((l) => (l.type === 'log' ? l.text : '')))

    const frames = kept.filter((e) => e.type === 'frame')
    const last = frames[frames.length - 1]
    const { payloads } = await second.invoke('frames.payloads', { connectionId: view, seqs: [last.seq] })
    expect(payloads).toEqual([last.type === 'frame' && last.payload])
    const { positions } = await second.invoke('frames.locate', { connectionId: view, seqs: [last.seq] })
    expect(positions).toEqual([frames.length - 1])
    const rows = decodeFrameRows((await second.invoke('frames.rows', { connectionId: view, from: frames.length - 1, count: 1 })).rows)
    expect(rows.seq).toEqual([last.seq])
  })
})
