import type { EngineEvent, SessionSearchHit } from '../../contract'
import { cursorAbove, merge, readTaken } from './runEvents'
import { CLASSES, type SessionFiles } from './sessionFiles'
import { firstRecordAbove } from './sessionIndex'

/** Events read at once while walking a whole session (an export). */
const WALK = 2048

/** The highest seq a session holds (0 when it holds none). */
export function lastSeqOf(files: SessionFiles): number {
  let last = 0
  for (const kind of CLASSES) {
    const index = files.index(kind)
    if (index.count) last = Math.max(last, index.records(index.count - 1, 1)[0].seq)
  }
  return last
}

/**
 * Every event of a session with `from <= ts <= to`, in order, handed to `each` a batch at a time (so a session of
 * millions of events is walked in bounded memory). Time is found by binary search in each index.
 */
export function walkSession(files: SessionFiles, each: (event: EngineEvent) => void, from = -Infinity, to = Infinity): number {
  const cursors = CLASSES.map((kind) => {
    const cursor = cursorAbove(files, kind, 0)
    if (from > -Infinity) cursor.position = firstRecordAbove(files.index(kind), 'ts', from - 1e-9)
    return cursor
  })
  let count = 0
  for (;;) {
    const taken = merge(cursors, WALK)
    if (taken.length === 0) return count
    for (const event of readTaken(taken)) {
      if (event.ts > to) return count
      each(event)
      count++
    }
  }
}

/**
 * Which part of a connection's state an event is, when it is one (its latest connection state, handshake,
 * hooks, and discovery step of each list): what a recording's context and a view opened mid-session start from.
 */
export function contextKey(event: EngineEvent): string | undefined {
  if (event.type === 'connection' || event.type === 'handshake' || event.type === 'hooks') return event.type
  return event.type === 'discovery' ? `discovery ${event.method}` : undefined
}

/**
 * The state a session's connection was in just before `ts` (its latest connection event, handshake, hooks and
 * discovery step of each list): a recording of a time range starts with it, as a recording started then would.
 */
export function contextBefore(files: SessionFiles, ts: number): EngineEvent[] {
  const others = files.index('others')
  const end = firstRecordAbove(others, 'ts', ts - 1e-9)
  const latest = new Map<string, EngineEvent>()
  for (let at = 0; at < end; at += WALK)
    for (const event of files.lines(others.records(at, Math.min(WALK, end - at)))) {
      const key = contextKey(event)
      if (key) latest.set(key, event)
    }
  return [...latest.values()].sort((a, b) => a.seq - b.seq)
}

/** Bytes of the events file read at once while searching. */
const SEARCH_CHUNK = 4 * 1024 * 1024

/**
 * Looks for `text` (as written in the session's lines: JSON, case-insensitive for ASCII) in a session's events,
 * in order from the `from`-th event, for at most `budgetMs`: the hits, where to go on, and how many events there
 * are in all. A session's lines lie in its file in the order of its events, so the file is read straight through
 * a few megabytes at a time, its indexes telling which line is which. A page of hits comes back in well under a
 * second whatever the session's length; the caller asks again from `next` to go on.
 */
export function searchSession(
  files: SessionFiles,
  text: string,
  from: number,
  budgetMs: number,
  limit: number,
): { hits: SessionSearchHit[]; next: number; total: number; done: boolean } {
  const total = CLASSES.reduce((sum, kind) => sum + files.index(kind).count, 0)
  const needle = JSON.stringify(text).slice(1, -1).toLowerCase()
  const started = performance.now()
  const cursors = CLASSES.map((kind) => cursorAbove(files, kind, 0))
  if (from > 0) skip(cursors, from)
  const hits: SessionSearchHit[] = []
  let at = from
  let chunk: { offset: number; text: string } | undefined
  while (at < total && hits.length < limit && performance.now() - started < budgetMs) {
    const taken = merge(cursors, 1024)
    if (taken.length === 0) break
    for (const { cursor, record, position } of taken) {
      if (!chunk || record.offset + record.length > chunk.offset + chunk.text.length) {
        // The next few megabytes of lines (latin1: one character a byte, so offsets stay byte offsets).
        const length = Math.max(record.length, SEARCH_CHUNK)
        chunk = { offset: record.offset, text: files.bytes(record.offset, length).toString('latin1').toLowerCase() }
      }
      at++
      const start = record.offset - chunk.offset
      const line = chunk.text.slice(start, start + record.length)
      if (!line.includes(needle)) continue
      hits.push({
        seq: record.seq,
        ts: record.ts,
        kind: cursor.kind === 'frames' ? 'frame' : cursor.kind === 'logs' ? 'log' : 'other',
        ...(cursor.kind !== 'others' && { position }),
      })
      if (hits.length >= limit) break
    }
  }
  return { hits, next: at, total, done: at >= total }
}

/** Moves merged cursors past the first `n` events of the session (by seq, without reading lines). */
function skip(cursors: ReturnType<typeof cursorAbove>[], n: number): void {
  // The n-th event's seq is the smallest s with (events numbered <= s) >= n: a binary search on seq.
  let lo = 0
  let hi = Math.max(...cursors.map(lastRecordSeq))
  const countUpTo = (seq: number) => cursors.reduce((sum, c) => sum + firstRecordAbove(c.files.index(c.kind), 'seq', seq), 0)
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    if (countUpTo(mid) >= n) hi = mid
    else lo = mid + 1
  }
  for (const cursor of cursors) cursor.position = firstRecordAbove(cursor.files.index(cursor.kind), 'seq', lo)
}

function lastRecordSeq(cursor: ReturnType<typeof cursorAbove>): number {
  const index = cursor.files.index(cursor.kind)
  return index.count ? index.records(index.count - 1, 1)[0].seq : 0
}
