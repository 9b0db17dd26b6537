import {
  firstAbove,
  frameOfRow,
  logOfRow,
  type FrameEvent,
  type FrameRest,
  type FrameRows,
  type FrameShape,
  type LogEvent,
  type LogRows,
  type LogShape,
} from '../../../shared/contract'

/**
 * One connection's frames or log lines, in order: events as they arrived live, and the rows of backlog
 * pages as they came (shared/contract/backlog.ts), each row made an event only when something reads it
 * whole. So a backlog of a hundred thousand frames is listed at once, at the cost of a row number each,
 * and filters read rows without making events. Appending is O(1).
 */
abstract class RowList<S, E extends S & { seq: number }, Rows extends { seq: number[]; shapes: S[]; shape: number[] }> {
  private readonly chunks: Chunk<E, Rows>[] = []
  private last: Chunk<E, Rows> | undefined
  length = 0

  /** Row `k` of a backlog chunk as an event. */
  protected abstract fromRow(chunk: Chunk<E, Rows>, k: number): E

  /** The i-th item, as an event. */
  at(i: number): E {
    const chunk = this.chunkOf(i)
    return chunk.rows ? this.fromRow(chunk, i - chunk.start) : chunk.events[i - chunk.start]
  }

  /** Every item, as events (making them all: for copying the lot). */
  all(): E[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i))
  }

  /** The fields the item shares with others (a frame's direction, kind, method; a line's source and levels), without making it an event. */
  shapeAt(i: number): S {
    const { start, rows, index, events } = this.chunkOf(i)
    return rows ? rows.shapes[rows.shape[index[i - start]]] : events[i - start]
  }

  seqAt(i: number): number {
    const { start, rows, index, events } = this.chunkOf(i)
    return rows ? rows.seq[index[i - start]] : events[i - start].seq
  }

  /** The position of the item numbered `seq`, or -1. */
  indexOfSeq(seq: number): number {
    const at = this.firstFrom(seq)
    return at < this.length && this.seqAt(at) === seq ? at : -1
  }

  /** The position of the first item with a seq of `seq` or above (the length when none). */
  firstFrom(seq: number): number {
    return firstAbove(this.length, (i) => this.seqAt(i), seq - 1) // seqs are whole numbers
  }

  /** Appends a live event. */
  push(event: E): void {
    const last = this.chunks[this.chunks.length - 1]
    if (last && !last.rows) last.events.push(event)
    else this.chunks.push({ start: this.length, events: [event], index: [] })
    this.length++
  }

  /** Appends row `row` of a backlog page's `rows`. */
  pushRow(rows: Rows, row: number): void {
    const last = this.chunks[this.chunks.length - 1]
    if (last?.rows === rows) last.index.push(row)
    else this.chunks.push({ start: this.length, rows, index: [row], events: [] })
    this.length++
  }

  /** The run item i is in (kept: reading goes mostly in order). */
  protected chunkOf(i: number): Chunk<E, Rows> {
    const last = this.last
    if (last && i >= last.start && i < last.start + (last.rows ? last.index.length : last.events.length)) return last
    // The last chunk that starts at or before i (chunks are in order of their starts).
    return (this.last = this.chunks[firstAbove(this.chunks.length, (k) => this.chunks[k].start, i) - 1])
  }
}

/** A run of items from one source: live events (`events`), or some rows of one backlog page (`index`; `events` then holds those made). */
interface Chunk<E, Rows> {
  start: number
  rows?: Rows
  index: number[]
  events: E[]
}

/** What the Frames view reads of a connection's frames: all of them (FrameList) or one turn's (`between`). */
export interface Frames {
  readonly length: number
  /** Where the first of these is among its connection's frames (0 for all of them): `first + i + 1` is frame i's number. */
  readonly first: number
  at(i: number): FrameEvent
  seqAt(i: number): number
  indexOfSeq(seq: number): number
  /** The fields a frame shares with others (direction, kind, method, …), without making it an event. */
  shapeAt(i: number): FrameShape
  /** Its other fields (id, subject, probe, …), or null when it has none. */
  restAt(i: number): FrameRest | null
}

export class FrameList extends RowList<FrameShape, FrameEvent, FrameRows> implements Frames {
  readonly first = 0

  /** A row made a frame is kept: it stays the same object while it is shown. */
  protected fromRow(chunk: Chunk<FrameEvent, FrameRows>, k: number): FrameEvent {
    return (chunk.events[k] ??= frameOfRow(chunk.rows!, chunk.index[k]))
  }

  restAt(i: number): FrameRest | null {
    const { start, rows, index, events } = this.chunkOf(i)
    return rows ? rows.rest[index[i - start]] || null : events[i - start]
  }

  /** The frames with `from <= seq <= to`, as they are now. */
  between(from: number, to: number): Frames {
    const first = this.firstFrom(from)
    const length = Math.max(0, this.firstFrom(to + 1) - first)
    return {
      length,
      first,
      at: (i) => this.at(first + i),
      seqAt: (i) => this.seqAt(first + i),
      shapeAt: (i) => this.shapeAt(first + i),
      restAt: (i) => this.restAt(first + i),
      indexOfSeq: (seq) => {
        const at = this.indexOfSeq(seq)
        return at >= first && at < first + length ? at - first : -1
      },
    }
  }
}

/** A connection's log lines. A backlog's lines come without their text, which is fetched when shown or searched (store/logTexts.ts). */
export class LogList extends RowList<LogShape, LogEvent, LogRows> {
  private readonly texts = new Map<number, string>()
  private rowCount = 0

  /** A backlog line as an event, its text empty until fetched. */
  protected fromRow(chunk: Chunk<LogEvent, LogRows>, k: number): LogEvent {
    const row = chunk.index[k]
    return logOfRow(chunk.rows!, row, this.texts.get(chunk.rows!.seq[row]) ?? '')
  }

  override pushRow(rows: LogRows, row: number): void {
    super.pushRow(rows, row)
    this.rowCount++
  }

  /** A line's text, or undefined while it has not been fetched. */
  textAt(i: number): string | undefined {
    const { start, rows, index, events } = this.chunkOf(i)
    return rows ? this.texts.get(rows.seq[index[i - start]]) : events[i - start].text
  }

  /** Every line's text is here. */
  get textsComplete(): boolean {
    return this.texts.size === this.rowCount
  }

  /** Keeps the text of the line numbered `seq`, once fetched. */
  keepText(seq: number, text: string): void {
    this.texts.set(seq, text)
  }
}
