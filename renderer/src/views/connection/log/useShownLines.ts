import { useEffect, useMemo, useReducer } from 'react'
import { LOG_LEVELS, type LogEvent, type LogLevel } from '../../../../../shared/contract'
import { everyHeldLine, loadLogTexts } from '../../../store/logTexts'
import type { LogList } from '../../../store/rowLists'
import { sortedIndexOf } from '../../../store/foundFrames'
import { useIncrementalFilter } from '../frames/useIncrementalFilter'
import type { TimeRange } from '../../../store/store'

/** What the Log view lists, in order: the k-th row is the line at `positionAt(k)`. */
export interface ShownLines {
  count: number
  positionAt(rank: number): number
  rankOf(position: number): number
  /** Texts are being fetched before the text filter can answer. */
  searching: boolean
  /** The filter ran over the lines held only (a long session's): the whole session is searched with "Search this session". */
  overLoaded: boolean
}

/**
 * The lines of `logs` at `minimum` level or above whose text or logger holds `needle`. Unfiltered, every
 * position in order. Filtered, over every line when all are held (a short session: their texts fetched
 * first), else over the lines held now (a long session's recent lines and those shown), the rest of the
 * session being a search away (`sessions.search`).
 */
export function useShownLines(logs: LogList, minimum: LogLevel, needle: string, range?: TimeRange): ShownLines {
  const floor = LOG_LEVELS.indexOf(minimum)
  const everything = floor === 0 && !needle && !range
  const complete = logs.complete
  // A backlog's lines come without their text: fetched for all of them held before the text filter answers.
  const [, textsCame] = useReducer((n: number) => n + 1, 0)
  const textsHeld = !needle || logs.textlessCount === 0
  useEffect(() => {
    if (!textsHeld)
      void loadLogTexts(logs, everyHeldLine(logs)).then(
        (fetched) => fetched && textsCame(),
        () => {},
      )
  }, [textsHeld, logs, logs.length, logs.changes])
  const test = useMemo(() => lineTest(floor, needle, range), [floor, needle, range])

  const indices = useIncrementalFilter(
    logs,
    `${minimum}|${needle}|${range?.from}|${range?.to}|${textsHeld}|${complete}|${complete ? 0 : logs.changes}`,
    everything ? undefined : (i) => test(logs.at(i), logs.textAt(i)),
    complete ? undefined : () => logs.heldPositions(),
  )
  if (everything)
    return { count: logs.length, positionAt: (rank) => rank, rankOf: (position) => position, searching: false, overLoaded: false }
  return {
    count: indices.length,
    positionAt: (rank) => indices[rank],
    rankOf: (position) => sortedIndexOf(indices, position),
    searching: !textsHeld,
    overLoaded: !complete,
  }
}

/** The filter as a test of a line (and its text, when fetched): at least the level, in the range brushed, and the needle in its text or its logger. */
function lineTest(floor: number, needle: string, range?: TimeRange): (line: LogEvent | undefined, text: string | undefined) => boolean {
  return (line, text) =>
    line !== undefined &&
    rank(line) >= floor &&
    (!range || (line.ts >= range.from && line.ts <= range.to)) &&
    (!needle || (text ?? '').toLowerCase().includes(needle) || (line.server?.logger ?? line.source).toLowerCase().includes(needle))
}

/** A line's level on the spec's scale: a server's as it sent it, Parallax's own mapped onto it. */
export function levelOf(line: Pick<LogEvent, 'server' | 'level'>): string {
  if (line.server) return line.server.level
  return line.level === 'warn' ? 'warning' : line.level
}

/** Where a line stands for filtering (a server level outside the spec's counts as info). */
function rank(line: LogEvent): number {
  const at = LOG_LEVELS.indexOf(levelOf(line) as LogLevel)
  return at === -1 ? 1 : at
}
