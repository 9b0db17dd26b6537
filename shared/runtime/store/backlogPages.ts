import { type BacklogLists, type BacklogPage, type FrameRows, type LogRows } from '../../contract'
import { BacklogRows } from '../backlogRows'
import { anyLeft, cursorAbove, merge, readTaken, type Cursor } from './runEvents'
import { firstRecordAbove } from './sessionIndex'
import type { SessionFiles } from './sessionFiles'

/**
 * How many of each connection's latest frames and log lines a UI catching up is brought as rows; the rest it
 * reads by position when they are shown (`frames.rows`, `logs.rows`), so a session of ten million events opens
 * as fast as one of a thousand.
 */
export const TAIL_ROWS = 2000

/**
 * A page of a UI's catch-up on a run (shared/contract/backlog.ts): every event but frames and log lines, whole,
 * and each connection's latest TAIL_ROWS frames and log lines as rows, in seq order, at most `limit` in all; and
 * for each connection, how many frames and log lines it has as of the page's end and the position of the first
 * of its rows the page carries.
 */
export function backlogPage(
  sessions: { connectionId: string; files: SessionFiles }[],
  afterSeq: number,
  limit: number,
  lastSeq: number,
): BacklogPage {
  const cursors: Cursor[] = []
  for (const { files } of sessions) {
    cursors.push(cursorAbove(files, 'others', afterSeq))
    for (const kind of ['frames', 'logs'] as const)
      cursors.push(cursorAbove(files, kind, afterSeq, Math.max(0, files.index(kind).count - TAIL_ROWS)))
  }
  const taken = merge(cursors, limit)
  const more = anyLeft(cursors)
  const endSeq = more ? taken[taken.length - 1].record.seq : lastSeq
  const rows = new BacklogRows()
  for (const event of readTaken(taken)) rows.add(event)
  const page = rows.page(afterSeq, Infinity, endSeq)
  const lists: BacklogLists = {}
  const firstOf = new Map<Cursor, number>()
  for (const { cursor, position } of taken) if (!firstOf.has(cursor)) firstOf.set(cursor, position)
  sessions.forEach(({ connectionId, files }, i) => {
    const [, frames, logs] = cursors.slice(i * 3, i * 3 + 3)
    const count = (kind: 'frames' | 'logs') => (more ? firstRecordAbove(files.index(kind), 'seq', endSeq) : files.index(kind).count)
    const entry = { frames: count('frames'), logs: count('logs') }
    if (entry.frames === 0 && entry.logs === 0 && !firstOf.has(cursors[i * 3])) return
    lists[connectionId] = {
      ...entry,
      ...(firstOf.has(frames) && { framesFrom: firstOf.get(frames) }),
      ...(firstOf.has(logs) && { logsFrom: firstOf.get(logs) }),
    }
  })
  return { ...page, lastSeq: endSeq, more, lists }
}

/** Positions `from` … of a connection's frames (or log lines) as rows, at most `count`. */
export function rowsAt(files: SessionFiles, kind: 'frames', from: number, count: number): FrameRows
export function rowsAt(files: SessionFiles, kind: 'logs', from: number, count: number): LogRows
export function rowsAt(files: SessionFiles, kind: 'frames' | 'logs', from: number, count: number): FrameRows | LogRows {
  const total = files.index(kind).count
  const positions = Array.from({ length: Math.max(0, Math.min(count, total - from)) }, (_, i) => from + i)
  return rowsOfPositions(files, kind, positions)
}

/** The rows at `positions` (ascending) of a connection's frames or log lines, encoded as a page's. */
export function rowsOfPositions(files: SessionFiles, kind: 'frames' | 'logs', positions: number[]): FrameRows | LogRows {
  const index = files.index(kind)
  const records = []
  // Runs of neighbouring positions are read in one go.
  for (let i = 0; i < positions.length;) {
    let j = i + 1
    while (j < positions.length && positions[j] === positions[j - 1] + 1) j++
    records.push(...index.records(positions[i], j - i))
    i = j
  }
  const rows = new BacklogRows()
  for (const event of files.lines(records)) rows.add(event)
  const page = rows.page(0, Infinity, Infinity) // encoded: numbers as differences, times in ticks
  return kind === 'frames' ? page.frames : page.logs
}
