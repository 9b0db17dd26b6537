import type { TimeRange } from '../../../store/store'
import { brushTimeRange } from '../../../store/timelineActions'
import { openTab } from '../../../store/actions'
import { spanDuration, wallClock } from './axisTicks'

/** The range brushed on the Timeline, where a view shows only what falls in it: a link back to the Timeline, and ✕ to show all again. */
export function TimeRangeChip({ connectionId, range }: { connectionId: string; range: TimeRange }) {
  const step = Math.max((range.to - range.from) / 10, 1e-6)
  return (
    <span className="brush-chip" data-testid="time-range-chip" data-from={range.from} data-to={range.to}>
      <button className="btn ghost small" onClick={() => openTab('timeline')} title="Brushed on the Timeline: show it there">
        {wallClock(range.from, step)} – {wallClock(range.to, step)} ({spanDuration(range.to - range.from)})
      </button>
      <button
        className="btn ghost small"
        onClick={() => brushTimeRange(connectionId, undefined)}
        aria-label="Show every time again"
        title="Show every time again"
      >
        ✕
      </button>
    </span>
  )
}
