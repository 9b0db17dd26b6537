import type { EngineEvent } from '../../contract'
import { CLASSES, type EventClass, type SessionFiles } from './sessionFiles'
import { firstRecordAbove, type IndexRecord, type IndexSource } from './sessionIndex'

/** Records read ahead at once, per index, while merging. */
const READ_AHEAD = 512

/** One index read in order from a position: its next record, read a batch at a time. */
export class Cursor {
  private batch: IndexRecord[] = []
  private at = 0
  /** The position of the record `next` is. */
  position: number

  constructor(
    readonly files: SessionFiles,
    readonly kind: EventClass,
    private readonly index: IndexSource,
    from: number,
  ) {
    this.position = from
  }

  get next(): IndexRecord | undefined {
    if (this.at === this.batch.length) {
      const start = this.position
      if (start >= this.index.count) return undefined
      this.batch = this.index.records(start, READ_AHEAD)
      this.at = 0
    }
    return this.batch[this.at]
  }

  advance(): void {
    this.at++
    this.position++
  }
}

/** A record taken in a merge, with where it came from and its position in its index. */
export interface Taken {
  cursor: Cursor
  record: IndexRecord
  position: number
}

/** The records of `cursors` in seq order, at most `limit` (the cursors are left after the last taken). */
export function merge(cursors: Cursor[], limit: number): Taken[] {
  const out: Taken[] = []
  while (out.length < limit) {
    let best: Cursor | undefined
    let bestSeq = Infinity
    for (const cursor of cursors) {
      const next = cursor.next
      if (next && next.seq < bestSeq) {
        best = cursor
        bestSeq = next.seq
      }
    }
    if (!best) break
    out.push({ cursor: best, record: best.next!, position: best.position })
    best.advance()
  }
  return out
}

/** Whether any cursor has a record left. */
export function anyLeft(cursors: Cursor[]): boolean {
  return cursors.some((c) => c.next !== undefined)
}

/** The lines of the taken records, parsed, in the order taken (read per session, in file order). */
export function readTaken(taken: Taken[]): EngineEvent[] {
  const events: EngineEvent[] = new Array(taken.length)
  const bySession = new Map<SessionFiles, number[]>()
  taken.forEach(({ cursor }, i) => {
    let list = bySession.get(cursor.files)
    if (!list) bySession.set(cursor.files, (list = []))
    list.push(i)
  })
  for (const [files, positions] of bySession) {
    const read = files.lines(positions.map((i) => taken[i].record))
    positions.forEach((i, k) => (events[i] = read[k]))
  }
  return events
}

/** A cursor on one index of a session, at the first record numbered above `afterSeq` (or at `from`, if later). */
export function cursorAbove(files: SessionFiles, kind: EventClass, afterSeq: number, from = 0): Cursor {
  const index = files.index(kind)
  return new Cursor(files, kind, index, Math.max(from, firstRecordAbove(index, 'seq', afterSeq)))
}

/**
 * The events numbered above `afterSeq` across sessions (every connection of a run), in seq order, at most
 * `limit`, read back from their files: each session's three indexes are found at `afterSeq` by binary search
 * and merged.
 */
export function eventsSince(sessions: SessionFiles[], afterSeq: number, limit: number): EngineEvent[] {
  const cursors = sessions.flatMap((files) => CLASSES.map((kind) => cursorAbove(files, kind, afterSeq)))
  return readTaken(merge(cursors, limit))
}
