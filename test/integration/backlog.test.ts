import { afterEach, expect, it } from 'vitest'
import {
  askInParts,
  decodeBacklog,
  frameOfRow,
  logOfRow,
  walkBacklog,
  type BacklogPage,
  type EngineEvent,
  type FrameEvent,
  type LogEvent,
} from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { approveAll, fixtureTarget } from '../fixtures/targets'

// A UI opening on a session catches up with `events.backlog` (frames and log lines as rows, without what it
// shows only when asked) and fetches the rest on demand: `frames.payloads`, `logs.texts`. Against a real
// server speaking in its own voice: log messages, progress, the log level asked for.
let engine: Engine
afterEach(() => engine?.dispose())

/** The backlog as a UI receives it (through JSON, as over the web host's socket), page by page: each after the last. */
async function backlog(limit: number): Promise<BacklogPage[]> {
  const pages: BacklogPage[] = []
  for (let afterSeq = 0; ; afterSeq = pages.at(-1)!.lastSeq) {
    pages.push(JSON.parse(JSON.stringify(await engine.execute('events.backlog', { afterSeq, limit }))) as BacklogPage)
    if (!pages.at(-1)!.more) return pages
  }
}

it('a UI catching up gets every event, the payloads it folds, and the rest of each frame and log line when it asks', async () => {
  engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
  const connection = await engine.createConnection(fixtureTarget('serverLogs'))
  expect(await connection.open()).toBe(true)
  const connectionId = connection.id
  await engine.execute('connections.setLogLevel', { connectionId, level: 'debug' })
  for (let i = 0; i < 30; i++)
    await engine.execute('tools.call', { connectionId, tool: 'log', arguments: { level: 'info', logger: 'db', data: { i } } })
  await engine.execute('tools.call', { connectionId, tool: 'slow', arguments: { steps: 2 } })
  const kept = engine.events.since(0).filter((e) => e.connectionId === connectionId)

  // Every event comes back in order, whatever the page size; frames and log lines as rows.
  for (const limit of [10, 1000]) {
    const seen: EngineEvent[] = []
    for (const page of await backlog(limit))
      walkBacklog(decodeBacklog(page), {
        event: (event) => seen.push(event),
        frame: (rows, row) => seen.push(frameOfRow(rows, row)),
        log: (rows, row) => seen.push(logOfRow(rows, row, '')),
      })
    expect(seen.filter((e) => e.connectionId === connectionId).map((e) => [e.seq, e.type])).toEqual(kept.map((e) => [e.seq, e.type]))
  }

  const [page] = await backlog(1000)
  const whole = decodeBacklog(page)
  const frames: FrameEvent[] = []
  const lines: LogEvent[] = []
  walkBacklog(whole, {
    event: () => {},
    frame: (rows, row) => frames.push(frameOfRow(rows, row)),
    log: (rows, row) => lines.push(logOfRow(rows, row, '')),
  })
  // The payloads the UI folds come with their frames: progress, and the log level asked for.
  const carried = frames.filter((f) => !f.deferred)
  expect(new Set(carried.map((f) => f.method))).toEqual(new Set(['logging/setLevel', 'notifications/progress']))
  const progress = carried.find((f) => f.method === 'notifications/progress')!
  expect(progress.payload).toEqual((kept.find((e) => e.seq === progress.seq) as FrameEvent).payload)
  // The rest of the frames' payloads, and every log line's text, stay in the engine until asked for.
  expect(JSON.stringify([page.frames, page.logs])).not.toContain('"i":7')
  const deferred = frames.filter((f) => f.deferred)
  const { payloads } = await engine.invoke('frames.payloads', { connectionId, seqs: deferred.map((f) => f.seq) })
  expect(payloads).toEqual(deferred.map((f) => (kept.find((e) => e.seq === f.seq) as FrameEvent).payload))
  const { texts } = await engine.invoke('logs.texts', { connectionId, seqs: lines.map((l) => l.seq) })
  const keptLines = kept.filter((e): e is LogEvent => e.type === 'log')
  expect(texts).toEqual(keptLines.map((l) => l.text))
  expect(texts).toContain('{"i":7}')
  // Each log line is as the engine keeps it but for its text: its levels, its logger, the frame it came in.
  expect(lines.map((l, i) => ({ ...l, text: texts[i] }))).toEqual(keptLines)

  // An answer holds as much as fits in a few megabytes; the asker asks again for the rest.
  for (let i = 0; i < 6; i++)
    await engine.execute('tools.call', { connectionId, tool: 'log', arguments: { level: 'info', data: `${i} ${'x'.repeat(900_000)}` } })
  const big = engine.events
    .since(0)
    .filter((e): e is FrameEvent => e.type === 'frame' && e.connectionId === connectionId && e.bytes > 900_000)
  expect(big.length).toBeGreaterThanOrEqual(6)
  const once = (await engine.execute('frames.payloads', { connectionId, seqs: big.map((f) => f.seq) })) as { payloads: unknown[] }
  expect(once.payloads.length).toBeLessThan(big.length)
  const asked = await askInParts(
    big.map((f) => f.seq),
    async (seqs) => (await engine.invoke('frames.payloads', { connectionId, seqs })).payloads,
  )
  expect(asked).toEqual(big.map((f) => f.payload))

  // Asked about another connection's line, or an event that is no log line, the engine says so by number.
  await expect(engine.invoke('logs.texts', { connectionId: 'nope', seqs: [lines[0].seq] })).rejects.toThrow(`no log line #${lines[0].seq}`)
  await expect(engine.invoke('logs.texts', { connectionId, seqs: [frames[0].seq] })).rejects.toThrow(`no log line #${frames[0].seq}`)
})
