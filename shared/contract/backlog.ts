import type { EngineEvent, FrameEvent, LogEvent } from './events'

/**
 * The backlog as it travels to a UI catching up on a long session (`events.backlog`), one page at a time.
 * A session's bulk is frames and log lines, and from one to the next little but their number, time and
 * size changes. So they travel as rows: what repeats (a frame's connection, direction, protocol,
 * transport, kind and method; a log line's connection, source and levels) is a shape written once per
 * page, and each row is its shape's number beside the fields that change, one column per field.
 *
 * What a UI does not show until asked stays in the engine, as a big frame's payload always did: a frame
 * carries its payload only when the UI folds it into its views (`payloadFolded`), else it is `deferred`
 * and fetched when opened or copied (`frames.payloads`); a log line's text is fetched when the Log view
 * shows or searches it (`logs.texts`). So a flood of log messages travels as numbers. Every other
 * event travels whole.
 *
 * Numbers travel short and exact: a row's seq and ts as the difference from the row before it in its
 * column (the first as it is), ts counted in ticks of 1/4096 ms, a log line's frameSeq as how far back its
 * frame is (`encodeBacklog`, `decodeBacklog`).
 * A UI keeps a decoded page's rows as they are and makes a row an event only when something reads it
 * whole (`frameOfRow`, `logOfRow`).
 */
export interface BacklogPage {
  frames: FrameRows
  logs: LogRows
  /** Every other event, whole. */
  events: EngineEvent[]
  /** The seq of the page's last event (the `afterSeq` asked for when it is empty): the next page starts after it. */
  lastSeq: number
  /** The engine holds events after this page. */
  more: boolean
  /**
   * Each connection's frames and log lines as of `lastSeq`: how many it has, and the position (from 0) of the
   * first of its rows in this page. A page carries only each connection's latest rows: those before are read by
   * position when shown (`frames.rows`, `logs.rows`).
   */
  lists?: BacklogLists
}

export type BacklogLists = Record<string, { frames: number; logs: number; framesFrom?: number; logsFrom?: number }>

export type FrameShape = Pick<FrameEvent, 'connectionId' | 'direction' | 'protocol' | 'transport' | 'kind' | 'method'>

/**
 * A frame's fields beyond its shape and its columns (seq, ts, bytes), each carried in its row when the frame
 * has it: the one list the row type, the check below and the engine's copy (shared/runtime/backlogRows.ts)
 * are made from. Its payload goes beside them only when the UI folds it.
 */
export const FRAME_REST_FIELDS = [
  'id',
  'latencyMs',
  'requestSeq',
  'subject',
  'probe',
  'resendOf',
  'truncated',
  'http',
  'view',
  'grpc',
] as const satisfies readonly (keyof FrameEvent)[]

/** A frame's other fields, when it has any: its id, latency, subject, …, and its payload when the UI folds it. */
export type FrameRest = Partial<Pick<FrameEvent, (typeof FRAME_REST_FIELDS)[number] | 'payload'>>

/** Frames as columns: row i is `seq[i]`, `ts[i]`, `bytes[i]`, the shape `shapes[shape[i]]` and `rest[i]` (0: none). */
export interface FrameRows {
  shapes: FrameShape[]
  seq: number[]
  ts: number[]
  /** How `ts` travels (see TICKS). */
  tsIn?: 'ticks' | 'ms'
  shape: number[]
  bytes: number[]
  rest: (FrameRest | 0)[]
}

export type LogShape = Pick<LogEvent, 'connectionId' | 'source' | 'level' | 'oddity' | 'about'> & {
  server?: { level: string; logger?: string }
}

/** Log lines as columns, without their text: row i is `seq[i]`, `ts[i]`, the shape `shapes[shape[i]]` and, for a server's message, `frameSeq[i]`. */
export interface LogRows {
  shapes: LogShape[]
  seq: number[]
  ts: number[]
  /** How `ts` travels (see TICKS). */
  tsIn?: 'ticks' | 'ms'
  shape: number[]
  frameSeq: (number | null)[]
}

// Every field of a frame and of a log line has its place in a row: a field added to either event stops this
// compiling until it has one (a frame's: in its shape or in FRAME_REST_FIELDS, which the engine's rows,
// shared/runtime/backlogRows.ts, copy whole).
type NoneLeft<Fields extends never> = Fields
type _FrameRowHoldsEveryField = NoneLeft<
  Exclude<keyof FrameEvent, keyof FrameShape | keyof FrameRest | 'type' | 'seq' | 'ts' | 'bytes' | 'deferred'>
>
type _LogRowHoldsEveryField = NoneLeft<Exclude<keyof LogEvent, keyof LogShape | 'type' | 'seq' | 'ts' | 'text'>>
type _LogRowHoldsEveryServerField = NoneLeft<Exclude<keyof NonNullable<LogEvent['server']>, 'level' | 'logger' | 'frameSeq'>>

/** A page as it arrived, its numbers made whole again (`decodeBacklog`): what can be walked and read. */
export type DecodedBacklog = BacklogPage & { decoded: true }

/**
 * A timestamp (epoch ms) is a double, and every one from 2004 to 2039 is a whole number of ticks of 1/4096
 * ms; so is any whole number of ms. A column of such timestamps travels as differences of ticks, small
 * integers, and comes back to the bit; a column holding any other (a made-up time) travels as it is.
 */
const TICKS = 4096

/** The page as it travels, its numbers made short. Its columns are the caller's: they are changed in place. */
export function encodeBacklog(page: BacklogPage): BacklogPage {
  const { frames, logs } = page
  logs.frameSeq = logs.frameSeq.map((frameSeq, row) => (frameSeq === null ? null : logs.seq[row] - frameSeq))
  for (const rows of [frames, logs]) {
    rows.tsIn = rows.ts.every((ts) => Number.isInteger(ts * TICKS)) ? 'ticks' : 'ms'
    if (rows.tsIn === 'ticks') {
      for (let row = 0; row < rows.ts.length; row++) rows.ts[row] *= TICKS
      differences(rows.ts)
    }
    differences(rows.seq)
  }
  return page
}

/** The page with its numbers whole again, in new columns. */
export function decodeBacklog(page: BacklogPage): DecodedBacklog {
  return { ...page, frames: decodeFrameRows(page.frames), logs: decodeLogRows(page.logs), decoded: true }
}

/** Frame rows as they travel (a page's, or `frames.rows`'), their numbers whole again, in new columns. */
export function decodeFrameRows(rows: FrameRows): FrameRows {
  return { ...rows, seq: sums(rows.seq), ts: timesOf(rows) }
}

/** Log rows as they travel, their numbers whole again, in new columns. */
export function decodeLogRows(rows: LogRows): LogRows {
  const seq = sums(rows.seq)
  const frameSeq = rows.frameSeq.map((back, row) => (back === null ? null : seq[row] - back))
  return { ...rows, seq, ts: timesOf(rows), frameSeq }
}

function timesOf(rows: FrameRows | LogRows): number[] {
  return rows.tsIn === 'ticks' ? sums(rows.ts).map((ticks) => ticks / TICKS) : rows.ts
}

function differences(column: number[]): void {
  for (let row = column.length - 1; row > 0; row--) column[row] -= column[row - 1]
}

function sums(column: number[]): number[] {
  const out = column.slice()
  for (let row = 1; row < out.length; row++) out[row] += out[row - 1]
  return out
}

/** The position of the first of `count` items in seq order whose seq (`seqAt`) is above `seq` (`count` when none is). */
export function firstAbove(count: number, seqAt: (i: number) => number, seq: number): number {
  let lo = 0
  let hi = count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (seqAt(mid) <= seq) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** What walks a backlog page: each whole event, and each frame or log row in its place. */
export interface BacklogVisitor {
  event(event: EngineEvent): void
  frame(rows: FrameRows, row: number): void
  log(rows: LogRows, row: number): void
}

/** Visits the page's events in seq order. */
export function walkBacklog(page: DecodedBacklog, visit: BacklogVisitor): void {
  const { frames, logs, events } = page
  let f = 0
  let l = 0
  let e = 0
  for (;;) {
    const fs = f < frames.seq.length ? frames.seq[f] : Infinity
    const ls = l < logs.seq.length ? logs.seq[l] : Infinity
    const es = e < events.length ? events[e].seq : Infinity
    if (fs < ls && fs < es) visit.frame(frames, f++)
    else if (ls < es) visit.log(logs, l++)
    else if (es !== Infinity) visit.event(events[e++])
    else return
  }
}

// A row becomes one object literal of one layout (a field the row lacks is undefined): quick to make, and a
// UI holding many of them holds objects of one hidden class.

/** Row `row` as a frame event. */
export function frameOfRow(rows: FrameRows, row: number): FrameEvent {
  const shape = rows.shapes[rows.shape[row]]
  const rest = rows.rest[row] || undefined
  const frame: FrameEvent = {
    type: 'frame',
    seq: rows.seq[row],
    ts: rows.ts[row],
    connectionId: shape.connectionId,
    direction: shape.direction,
    protocol: shape.protocol,
    transport: shape.transport,
    kind: shape.kind,
    method: shape.method,
    bytes: rows.bytes[row],
    payload: undefined,
    deferred: rest?.payload === undefined ? true : undefined,
  }
  return rest ? Object.assign(frame, rest) : frame
}

/** Row `row` as a log event, with its text. */
export function logOfRow(rows: LogRows, row: number, text: string): LogEvent {
  const shape = rows.shapes[rows.shape[row]]
  const server = shape.server
  const frameSeq = rows.frameSeq[row]
  return {
    type: 'log',
    seq: rows.seq[row],
    ts: rows.ts[row],
    connectionId: shape.connectionId,
    source: shape.source,
    level: shape.level,
    text,
    server: server && { level: server.level, logger: server.logger, frameSeq: frameSeq ?? undefined },
    oddity: shape.oddity,
    ...(shape.about && { about: shape.about }),
  }
}
