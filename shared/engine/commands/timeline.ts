import { CommandError } from '../../contract'
import { CLASSES, type SessionFiles } from '../../runtime/store/sessionFiles'
import type { SpanIndex } from '../../runtime/store/spanIndex'
import { latencyRows, laneViews } from '../../runtime/store/spanQuery'
import type { CommandContext, DomainHandlers } from './handler'

/**
 * A connection's session on the time axis (DESIGN, "Time is an axis"): its lanes for the range a view shows,
 * and latency per method. Read from the session's span index (runtime/store/spanIndex.ts), live or past,
 * whatever the session's length.
 */
export const timelineCommands: DomainHandlers<'timeline'> = {
  'timeline.view': ({ connectionId, from, to, bins }, engine) => {
    const { files, spans } = sessionOf(engine, connectionId)
    const extent = extentOf(files)
    const range = rangeOf(extent, from, to)
    return { extent, range, lanes: laneViews(spans, range.from, range.to, bins) }
  },
  'timeline.latency': ({ connectionId, from, to }, engine) => {
    const { files, spans } = sessionOf(engine, connectionId)
    const range = rangeOf(extentOf(files), from, to)
    return { rows: latencyRows(spans, range.from, range.to) }
  },
}

function sessionOf(engine: CommandContext, connectionId: string): { files: SessionFiles; spans: SpanIndex } {
  const store = engine.events.store
  const files = store.files(connectionId)
  let spans: SpanIndex | undefined
  try {
    spans = files && store.spans(connectionId)
  } catch (error) {
    // A session's spans are built from its events when it has none: events it cannot read are said, not thrown raw.
    throw new CommandError(`the spans of this session could not be read: ${(error as Error).message}`, 'failed')
  }
  if (!files || !spans) throw new CommandError(`no session of connection "${connectionId}"`, 'not-found')
  return { files, spans }
}

/** From the session's first event to its last (read from the ends of its indexes). */
function extentOf(files: SessionFiles): { start: number; end: number } {
  let start = Infinity
  let end = -Infinity
  for (const kind of CLASSES) {
    const index = files.index(kind)
    if (!index.count) continue
    start = Math.min(start, index.records(0, 1)[0].ts)
    end = Math.max(end, index.records(index.count - 1, 1)[0].ts)
  }
  return Number.isFinite(start) ? { start, end } : { start: 0, end: 0 }
}

function rangeOf(extent: { start: number; end: number }, from?: number, to?: number): { from: number; to: number } {
  const range = { from: from ?? extent.start, to: to ?? extent.end }
  if (range.to < range.from) throw new CommandError(`the range ends (${range.to}) before it begins (${range.from})`, 'invalid-input')
  return range
}
