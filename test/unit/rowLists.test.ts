import { describe, expect, it } from 'vitest'
import { decodeBacklog, type EventInput, type FrameEvent, type LogEvent } from '../../shared/contract'
import { EventLog } from '../../shared/runtime/eventLog'
import { FrameList, LogList } from '../../renderer/src/store/rowLists'
import { frameInput } from '../fixtures/events'

// A connection's frames and log lines in the UI: live events and a backlog's rows, in one order.
const C = 'demo:tools#1'
const frame = (method: string, fields: Partial<FrameEvent> = {}) => frameInput({ method, payload: {}, bytes: 10, ...fields })

describe('frame and log lists', () => {
  it('read live events and backlog rows alike, in order, making a row a frame once', () => {
    const log = new EventLog()
    for (let i = 0; i < 5; i++) log.emit(frame('notifications/message'))
    log.emit(frame('tools/call', { direction: 'out', kind: 'request', id: 1, subject: 'echo' }))
    const page = decodeBacklog(log.backlog(0))
    const frames = new FrameList()
    const live = log.emit(frame('ping', { direction: 'out', kind: 'request', id: 2 })) as FrameEvent
    frames.push(live) // a live frame before the backlog's rows (a page asked again after a lost link)
    for (let row = 0; row < page.frames.seq.length; row++) frames.pushRow(page.frames, row)
    frames.push(live)

    expect(frames.length).toBe(8)
    expect(frames.all().map((f) => f.method)).toEqual(['ping', ...Array(5).fill('notifications/message'), 'tools/call', 'ping'])
    expect(frames.at(3)).toBe(frames.at(3)) // kept: the same object while shown
    expect(frames.at(7)).toBe(live)
    expect(frames.shapeAt(6)).toMatchObject({ direction: 'out', kind: 'request', method: 'tools/call' })
    expect(frames.restAt(6)).toMatchObject({ id: 1, subject: 'echo' })
    expect(frames.restAt(2)).toBeNull()
    expect(frames.restAt(7)).toMatchObject({ id: 2 })
    expect(frames.indexOfSeq(6)).toBe(6)
    expect(frames.indexOfSeq(99)).toBe(-1)

    // One turn's frames: a window on the list.
    const turn = new FrameList()
    for (let row = 0; row < page.frames.seq.length; row++) turn.pushRow(page.frames, row)
    const window = turn.between(3, 5)
    expect([window.length, window.at(0).seq, window.seqAt(2), window.indexOfSeq(4), window.indexOfSeq(6)]).toEqual([3, 3, 5, 1, -1])
  })

  it('keep a backlog line without its text until it is fetched', () => {
    const log = new EventLog()
    for (let i = 0; i < 3; i++) log.emit({ type: 'log', connectionId: C, source: 'stderr', level: 'info', text: `line ${i}` } as EventInput)
    const page = decodeBacklog(log.backlog(0))
    const lines = new LogList()
    for (let row = 0; row < 3; row++) lines.pushRow(page.logs, row)
    lines.push({ type: 'log', connectionId: C, seq: 4, ts: 4, source: 'engine', level: 'debug', text: 'live' } as LogEvent)

    expect([lines.textAt(0), lines.textAt(3), lines.textsComplete]).toEqual([undefined, 'live', false])
    expect(lines.shapeAt(1)).toMatchObject({ source: 'stderr', level: 'info' })
    for (let i = 0; i < 3; i++) lines.keepText(lines.seqAt(i), `line ${i}`)
    expect(lines.textsComplete).toBe(true)
    expect(lines.all().map((l) => l.text)).toEqual(['line 0', 'line 1', 'line 2', 'live'])
  })
})
