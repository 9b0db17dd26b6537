import { describe, expect, it } from 'vitest'
import {
  decodeBacklog,
  frameOfRow,
  logOfRow,
  payloadFolded,
  walkBacklog,
  type BacklogPage,
  type EngineEvent,
  type EventInput,
  type FrameEvent,
  type LogEvent,
} from '../../shared/contract'
import { EventLog } from '../../shared/runtime/eventLog'
import { useStore } from '../../renderer/src/store/store'
import { frameInput } from '../fixtures/events'

// The backlog a UI catches up with travels as rows (shared/contract/backlog.ts): whatever the engine kept,
// a UI reading the pages gets every event back, in order, as it would have received it live — but for the
// payloads it does not fold and the log lines' texts, which stay in the engine until asked for.

const C = 'demo:tools#1'
const frame = frameInput

/** A session of every kind of row: requests and answers, a flood of log messages, progress, a cancel, engine notes, an oddity, another connection. */
function session(): EventLog {
  const log = new EventLog()
  let ts = 1_795_465_254_649.563 // epoch ms with the sub-millisecond part a real clock gives
  const at = () => (ts += 0.1 + Math.random())
  log.emit({
    type: 'connection',
    connectionId: C,
    state: 'connected',
    targetId: 'demo:tools',
    targetName: 'Demo',
    protocol: 'mcp',
    owner: { purpose: 'session', startedAt: 1 },
    ts: at(),
  } as EventInput)
  const initialize = log.emit(
    frame({ direction: 'out', kind: 'request', method: 'initialize', id: 0, payload: { method: 'initialize' }, ts: at() }),
  )
  log.emit(
    frame({ kind: 'response', method: 'initialize', id: 0, payload: { result: {} }, latencyMs: 1.5, requestSeq: initialize.seq, ts: at() }),
  )
  log.emit(
    frame({ direction: 'out', kind: 'request', method: 'logging/setLevel', id: 1, payload: { params: { level: 'debug' } }, ts: at() }),
  )
  for (let i = 0; i < 40; i++) {
    const message = log.emit(frame({ method: 'notifications/message', payload: { params: { level: 'info', data: { i } } }, ts: at() }))
    log.emit({
      type: 'log',
      connectionId: C,
      source: 'server',
      level: 'info',
      text: JSON.stringify({ i }),
      server: { level: 'info', logger: 'flood', frameSeq: message.seq },
      ts: at(),
    } as EventInput)
  }
  log.emit(
    frame({
      direction: 'out',
      kind: 'request',
      method: 'tools/call',
      id: 2,
      subject: 'slow',
      payload: { params: { _meta: { progressToken: 2 } } },
      ts: at(),
    }),
  )
  log.emit(frame({ method: 'notifications/progress', payload: { params: { progressToken: 2, progress: 1, total: 3 } }, ts: at() }))
  log.emit(frame({ direction: 'out', method: 'notifications/cancelled', payload: { params: { requestId: 2 } }, ts: at() }))
  log.emit(frame({ direction: 'out', kind: 'request', method: 'ping', id: 3, probe: true, payload: {}, bytes: 40, ts: at() }))
  log.emit({
    type: 'log',
    connectionId: C,
    source: 'server',
    level: 'warn',
    text: 'progress backwards',
    oddity: true,
    server: { level: 'warning' },
    ts: at(),
  } as EventInput)
  log.emit({ type: 'log', connectionId: C, source: 'stderr', level: 'info', text: 'listening', ts: at() } as EventInput)
  log.emit(
    frame({
      connectionId: 'demo:a2a#2',
      protocol: 'a2a',
      transport: 'jsonrpc',
      kind: 'stream-event',
      method: 'message/stream',
      http: { method: 'POST', url: 'http://127.0.0.1:4000/' },
      payload: { kind: 'status-update' },
      ts: at(),
    }),
  )
  return log
}

/** An event as a backlog brings it: a frame keeps its payload only when the UI folds it. */
function asBrought(event: EngineEvent): EngineEvent {
  if (event.type !== 'frame' || payloadFolded(event)) return event
  return { ...event, payload: undefined, deferred: true }
}

/** A page's events as a UI makes them from its rows, each log line given its text as `logs.texts` gives it. */
function unpack(page: BacklogPage, log: EventLog): EngineEvent[] {
  const out: EngineEvent[] = []
  walkBacklog(decodeBacklog(page), {
    event: (event) => out.push(event),
    frame: (rows, row) => out.push(frameOfRow(rows, row)),
    log: (rows, row) => out.push(logOfRow(rows, row, (log.at(rows.seq[row]) as LogEvent).text)),
  })
  return out
}

/** Every page from `afterSeq` on, as they travel (through JSON, as over the web host's socket). */
function pages(log: EventLog, limit: number, afterSeq = 0): BacklogPage[] {
  const out: BacklogPage[] = []
  for (;;) {
    const page = JSON.parse(JSON.stringify(log.backlog(afterSeq, limit))) as BacklogPage
    out.push(page)
    if (!page.more) return out
    afterSeq = page.lastSeq
  }
}

describe('the backlog a UI catches up with', () => {
  it('gives back every event in order, whatever the page size, with only the payloads the UI folds', () => {
    const log = session()
    const kept = log.since(0)
    for (const limit of [1, 7, 50, 1000]) {
      const events = pages(log, limit).flatMap((page) => unpack(page, log))
      expect(events.map((e) => e.seq)).toEqual(kept.map((e) => e.seq))
      expect(events).toEqual(kept.map(asBrought))
    }
    const brought = unpack(pages(log, 1000)[0], log).filter((e): e is FrameEvent => e.type === 'frame')
    expect(brought.filter((f) => !f.deferred).map((f) => f.method)).toEqual([
      'logging/setLevel',
      'notifications/progress',
      'notifications/cancelled',
    ])
  })

  it('pages in sequence, each page starting where the one before ended, and says where each connection’s rows go', () => {
    const log = session()
    const kept = log.since(0)
    const paged = pages(log, 25)
    expect(paged.length).toBeGreaterThan(2)
    expect(paged.slice(0, -1).every((page) => page.more)).toBe(true)
    let before = 0
    for (const page of paged) {
      const whole = decodeBacklog(page)
      for (const [connectionId, list] of Object.entries(page.lists ?? {})) {
        // The page's rows of a connection end at its count as of the page's end: its first row is at `framesFrom`.
        const rows = whole.frames.seq.filter((_, row) => whole.frames.shapes[whole.frames.shape[row]].connectionId === connectionId).length
        if (rows) expect(list.framesFrom! + rows).toBe(list.frames)
        const upTo = kept.filter((e) => e.type === 'frame' && e.connectionId === connectionId && e.seq <= page.lastSeq).length
        expect(list.frames).toBe(upTo)
      }
      expect(page.lastSeq).toBeGreaterThan(before)
      before = page.lastSeq
    }
    expect(paged.flatMap((page) => unpack(page, log)).map((e) => e.seq)).toEqual(kept.map((e) => e.seq))
  })

  it('brings a long session’s count and only its latest frames and log lines: the rest are read by position', () => {
    const log = new EventLog()
    for (let i = 0; i < 3000; i++) {
      const message = log.emit(frame({ method: 'notifications/message', payload: { params: { data: { i } } } }))
      log.emit({
        type: 'log',
        connectionId: C,
        source: 'server',
        level: 'info',
        text: `line ${i}`,
        server: { level: 'info', frameSeq: message.seq },
      } as EventInput)
    }
    const page = decodeBacklog(log.backlog(0))
    expect(page.lists?.[C]).toEqual({ frames: 3000, logs: 3000, framesFrom: 1000, logsFrom: 1000 })
    expect([page.frames.seq.length, page.logs.seq.length]).toEqual([2000, 2000])
    expect(page.frames.seq[0]).toBe(2001) // frame 1000 (from 0), the first of the latest 2000
    expect(page.more).toBe(false)
  })

  it('writes what repeats once: a flood of log messages is a few shapes and short numbers', () => {
    const log = new EventLog()
    for (let i = 0; i < 1000; i++) {
      const message = log.emit(frame({ method: 'notifications/message', payload: { params: { data: { i } } } }))
      log.emit({
        type: 'log',
        connectionId: C,
        source: 'server',
        level: 'info',
        text: `line ${i}`,
        server: { level: 'info', frameSeq: message.seq },
      } as EventInput)
    }
    const page = log.backlog(0, 2000)
    expect(page.frames.shapes).toHaveLength(1)
    expect(page.logs.shapes).toHaveLength(1)
    expect(page.frames.rest.every((rest) => rest === 0)).toBe(true)
    expect(new Set(page.frames.seq.slice(1))).toEqual(new Set([2])) // each frame two after the one before
    expect(new Set(page.logs.frameSeq)).toEqual(new Set([1])) // each line's frame just before it
    expect(JSON.stringify(page)).not.toContain('line 7') // the texts stay in the engine
    // A later page names only the shapes its own rows use.
    log.emit({ type: 'log', connectionId: 'other#1', source: 'engine', level: 'debug', text: 'hello' } as EventInput)
    expect(log.backlog(2000, 10).logs.shapes).toEqual([{ connectionId: 'other#1', source: 'engine', level: 'debug' }])
  })

  it('keeps every timestamp and number exact through the short numbers', () => {
    const log = session()
    const page = JSON.parse(JSON.stringify(log.backlog(0))) as BacklogPage
    expect([page.frames.tsIn, page.logs.tsIn]).toEqual(['ticks', 'ticks'])
    // Ticks of 1/4096 ms since the frame before: no two frames here are three steps (3.3 ms at most) apart.
    expect(Math.max(...page.frames.ts.slice(1))).toBeLessThan(3.3 * 4096)
    expect([...page.frames.ts, ...page.logs.ts].every(Number.isInteger)).toBe(true)
    const whole = decodeBacklog(page)
    const kept = log.since(0)
    const byType = (type: string) => kept.filter((e) => e.type === type)
    expect(whole.frames.ts).toEqual(byType('frame').map((e) => e.ts))
    expect(whole.logs.ts).toEqual(byType('log').map((e) => e.ts))
    expect(whole.logs.frameSeq).toEqual(byType('log').map((e) => (e.type === 'log' ? (e.server?.frameSeq ?? null) : null)))
    expect(decodeBacklog(page)).toEqual(whole) // the page as it arrived is left as it was

    // Times off the grid of ticks (made up, not read from a clock) travel as they are.
    const madeUp = new EventLog()
    for (const ts of [0.1, 0.30000000000000004, 1e-9]) madeUp.emit(frame({ method: 'ping', ts }))
    const odd = JSON.parse(JSON.stringify(madeUp.backlog(0))) as BacklogPage
    expect(odd.frames.tsIn).toBe('ms')
    expect(decodeBacklog(odd).frames.ts).toEqual([0.1, 0.30000000000000004, 1e-9])
  })

  it('brings a frame back with every field it had, through a page and the UI store folding it', () => {
    // Every field of a frame set (but `deferred`, which only a UI's copy has): a field added to FrameEvent stops
    // this compiling until it is set here too, so a field a row does not carry fails this test.
    const whole = {
      connectionId: 'demo:a2a#7',
      direction: 'in',
      protocol: 'a2a',
      transport: 'grpc',
      kind: 'notification',
      method: 'notifications/progress',
      id: 'r-1',
      payload: { params: { progressToken: 'r-1', progress: 2, total: 3 } },
      bytes: 4321,
      latencyMs: 12.25,
      requestSeq: 1,
      subject: 'slow tool',
      probe: true,
      resendOf: 1,
      truncated: { shownBytes: 100, file: '/tmp/parallax-spill/frame-2.json', refused: 'nested deeper than 256 levels' },
      http: {
        method: 'POST',
        url: 'http://127.0.0.1:4000/a2a',
        status: 200,
        statusText: 'OK',
        headers: { 'content-type': 'application/json' },
        eventId: 'e-9',
      },
      view: { id: '0123456789abcdef0123456789abcdef', uri: 'ui://widget/cart.html' },
      grpc: {
        service: 'lf.a2a.v1.A2AService',
        method: 'SendStreamingMessage',
        target: '127.0.0.1:50051',
        tls: false,
        metadata: { 'x-trace': 't-1' },
        status: { code: 0, name: 'OK', details: 'done' },
      },
    } as const satisfies Record<Exclude<keyof FrameEvent, 'type' | 'seq' | 'ts' | 'deferred'>, unknown>
    const log = new EventLog()
    log.emit(frame({ connectionId: whole.connectionId, direction: 'out', kind: 'request', method: 'tools/call', id: 'r-1', payload: {} }))
    const sent = log.emit(frame({ ...whole, ts: 1_795_465_254_649.75 }))
    // The same frame but for its payload, which the UI does not fold: it stays in the engine, and says so.
    const kept = log.emit(frame({ ...whole, method: 'message/stream', kind: 'stream-event', ts: 1_795_465_254_650.5 }))

    // And each field alone: a frame with nothing else beyond its shape still has a row that carries it.
    const alone = Object.entries(whole)
      .filter(([field]) => !['connectionId', 'direction', 'protocol', 'transport', 'kind', 'method', 'payload', 'bytes'].includes(field))
      .map(([field, value]) => log.emit(frame({ connectionId: whole.connectionId, method: 'notifications/message', [field]: value })))

    useStore.getState().applyBacklog(pages(log, 1000)[0])
    const frames = useStore.getState().connections[whole.connectionId].frames
    expect(frames.at(1)).toEqual(sent)
    expect(frames.at(2)).toEqual({ ...kept, payload: undefined, deferred: true })
    expect(alone).toHaveLength(10)
    expect(frames.all().slice(3)).toEqual(alone.map(asBrought))
    expect(unpack(pages(log, 1000)[0], log)).toEqual(log.since(0).map(asBrought))
  })
})
