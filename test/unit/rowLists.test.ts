import { afterEach, describe, expect, it } from 'vitest'
import { decodeBacklog, decodeFrameRows, decodeLogRows, type EventInput, type FrameEvent, type LogEvent } from '../../shared/contract'
import { EventLog } from '../../shared/runtime/eventLog'
import { rowsAt } from '../../shared/runtime/store/backlogPages'
import { BLOCK, FrameList, KEEP_ROWS, LogList, setRowSource } from '../../renderer/src/store/rowLists'
import { frameInput } from '../fixtures/events'

// A connection's frames and log lines in the UI, by position: the count of them all, the rows held (a page's
// latest, live events, rows fetched for what is shown), placeholders for the rest, and memory that stays flat.
const C = 'demo:tools#1'
const frame = (method: string, fields: Partial<FrameEvent> = {}) => frameInput({ method, payload: {}, bytes: 10, ...fields })

/** An engine's event log whose session the lists read their missing rows from, as the app reads them through `frames.rows`. */
function engineLog(): { log: EventLog; asked: [number, number][] } {
  const log = new EventLog()
  const asked: [number, number][] = []
  setRowSource({
    frames: async (connectionId, from, count) => {
      asked.push([from, count])
      return decodeFrameRows(rowsAt(log.store.files(connectionId)!, 'frames', from, count))
    },
    logs: async (connectionId, from, count) => decodeLogRows(rowsAt(log.store.files(connectionId)!, 'logs', from, count)),
  })
  return { log, asked }
}
afterEach(() => setRowSource(undefined))

/** A page's frame rows held at their positions, as the store holds them. */
function holdPage(frames: FrameList, log: EventLog, afterSeq = 0): void {
  const page = decodeBacklog(log.backlog(afterSeq))
  const list = page.lists![C]
  frames.setLength(list.frames)
  for (let row = 0; row < page.frames.seq.length; row++) frames.putRow(list.framesFrom! + row, page.frames, row)
}

describe('frame and log lists', () => {
  it('hold a short session whole: live events and a page’s rows alike, in order, each at its position once', () => {
    const { log } = engineLog()
    for (let i = 0; i < 5; i++) log.emit(frame('notifications/message'))
    log.emit(frame('tools/call', { direction: 'out', kind: 'request', id: 1, subject: 'echo' }))
    const frames = new FrameList(C)
    holdPage(frames, log)
    const live = log.emit(frame('ping', { direction: 'out', kind: 'request', id: 2 })) as FrameEvent
    frames.push(live)
    holdPage(frames, log) // a page asked again (a lost link) repeats rows: each stays where it is, once

    expect([frames.length, frames.complete]).toEqual([7, true])
    expect(frames.all().map((f) => f.method)).toEqual([...Array(5).fill('notifications/message'), 'tools/call', 'ping'])
    expect(frames.at(6)).toBe(live)
    expect(frames.at(5)).toMatchObject({ direction: 'out', kind: 'request', method: 'tools/call', id: 1, subject: 'echo' })
    expect([frames.indexOfSeq(6), frames.indexOfSeq(99), frames.locate(99)]).toEqual([5, -1, 7])

    // One turn's frames: a window on the list.
    const turn = frames.between(3, 5)!
    expect([turn.length, turn.first, turn.at(0)!.seq, turn.indexOfSeq(4), turn.indexOfSeq(6)]).toEqual([3, 2, 3, 1, -1])
  })

  it('know a long session’s count at once, hold only its latest rows, and fetch the others by position when shown', async () => {
    const { log, asked } = engineLog()
    for (let i = 0; i < 5000; i++) log.emit(frame('notifications/message', { id: i }))
    const frames = new FrameList(C)
    holdPage(frames, log)

    expect([frames.length, frames.heldCount, frames.complete]).toEqual([5000, 2000, false])
    expect(frames.at(4999)).toMatchObject({ seq: 5000, id: 4999 })
    expect(frames.at(0)).toBeUndefined() // a placeholder shows until it comes
    // Where a frame is, by its number: known among the rows held, unknown (the engine's to say) among the others.
    expect([frames.locate(4000), frames.indexOfSeq(4000), frames.locate(10), frames.indexOfSeq(10)]).toEqual([3999, 3999, undefined, -1])
    expect(frames.between(10, 20)).toBeUndefined()

    await frames.want(10, 40)
    expect(asked).toEqual([[0, BLOCK]]) // the block the rows are in, once
    expect(frames.at(10)).toMatchObject({ seq: 11, id: 10, method: 'notifications/message', deferred: true })
    expect(frames.between(11, 20)).toMatchObject({ first: 10, length: 10 })
    await frames.want(20, 30) // held now: not asked again
    expect(asked).toHaveLength(1)

    // Copying reads rows it does not hold for that once, leaving what the list holds as it was.
    const held = frames.heldCount
    expect((await frames.read([0, 700, 4999])).map((f) => f.id)).toEqual([0, 700, 4999])
    expect(frames.heldCount).toBe(held)
  })

  it('let go of the rows shown longest ago, so memory stays flat however many come; what is shown again is fetched again', async () => {
    const { log, asked } = engineLog()
    const frames = new FrameList(C)
    const total = KEEP_ROWS + 20 * BLOCK
    for (let i = 0; i < total; i++) frames.push(log.emit(frame('notifications/message', { id: i })) as FrameEvent)

    expect(frames.length).toBe(total)
    expect(frames.heldCount).toBeLessThanOrEqual(KEEP_ROWS + BLOCK)
    expect(frames.at(total - 1)?.id).toBe(total - 1) // the newest stay, where live rows arrive
    expect(frames.at(0)).toBeUndefined()
    let changes = 0
    frames.subscribe(() => changes++)
    await frames.want(0, 10)
    expect(asked).toEqual([[0, BLOCK]])
    expect(frames.at(0)?.id).toBe(0)
    expect(changes).toBeGreaterThan(0) // the views showing it draw it
  })

  it('keep a long session’s line without its text until it is fetched, and count those waiting', async () => {
    const { log } = engineLog()
    for (let i = 0; i < 3; i++) log.emit({ type: 'log', connectionId: C, source: 'stderr', level: 'info', text: `line ${i}` } as EventInput)
    const page = decodeBacklog(log.backlog(0))
    const lines = new LogList(C)
    for (let row = 0; row < 3; row++) lines.putRow(row, page.logs, row)
    lines.push({ type: 'log', connectionId: C, seq: 4, ts: 4, source: 'engine', level: 'debug', text: 'live' } as LogEvent)

    expect([lines.textAt(0), lines.textAt(3), lines.textlessCount]).toEqual([undefined, 'live', 3])
    expect(lines.at(1)).toMatchObject({ source: 'stderr', level: 'info' })
    lines.keepText(1, 99, 'not this line') // a line let go and fetched again under another number is left as it is
    for (let i = 0; i < 3; i++) lines.keepText(i, lines.at(i)!.seq, `line ${i}`)
    expect(lines.textlessCount).toBe(0)
    expect(lines.all().map((l) => l.text)).toEqual(['line 0', 'line 1', 'line 2', 'live'])
  })
})
