import { useState } from 'react'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'
import { brushTimeRange, showTimeWindow } from '../../../store/timelineActions'
import { spanDuration, wallClock } from './axisTicks'
import { fitWindow, zoomAt } from './axisWindow'
import { copyAxisImage } from './copyImage'
import { LatencyPanel } from './LatencyPanel'
import { TimeAxis } from './TimeAxis'
import type { Window } from './timelineFetch'
import './timeline.css'

/**
 * A connection's session on a zoomable time axis, with what it shows (the range, the range brushed) and
 * latency per method beside it.
 */
export function TimelinePanel({ view }: { view: ConnectionView }) {
  const stored = useStore((s) => s.timelineWindows[view.id])
  const brush = useStore((s) => s.timeRanges[view.id])
  const [extent, setExtent] = useState<{ start: number; end: number }>()
  const window: Window | undefined = stored ?? (extent && fitWindow(extent))
  const setWindow = (w: Window | undefined) => showTimeWindow(view.id, w)
  const centre = window && (window.from + window.to) / 2
  return (
    <div className="panel fill timeline-panel">
      <div className="toolbar timeline-toolbar">
        <button className="btn small" onClick={() => setWindow(undefined)} title="Fit the whole session (0)" disabled={!stored}>
          Fit
        </button>
        <button
          className="btn small"
          aria-label="Zoom out"
          title="Zoom out (−)"
          disabled={!window || !extent}
          onClick={() => setWindow(zoomAt(window!, 2, centre!, extent!))}
        >
          −
        </button>
        <button
          className="btn small"
          aria-label="Zoom in"
          title="Zoom in (+)"
          disabled={!window || !extent}
          onClick={() => setWindow(zoomAt(window!, 0.5, centre!, extent!))}
        >
          +
        </button>
        {window && (
          <span className="muted mono" data-testid="timeline-range">
            {wallClock(window.from, stepFor(window))} – {wallClock(window.to, stepFor(window))} · {spanDuration(window.to - window.from)}
          </span>
        )}
        <span className="spacer" />
        {brush ? (
          <span className="brush-chip" data-testid="timeline-brush">
            Frames, Log and Conversation show {wallClock(brush.from, stepFor(brush))} – {wallClock(brush.to, stepFor(brush))}
            <button className="btn ghost small" onClick={() => brushTimeRange(view.id, undefined)} aria-label="Clear the brushed range">
              ✕
            </button>
          </span>
        ) : (
          <span className="muted hint">Wheel zooms · drag pans · shift-drag brushes a range · click a span for its frames</span>
        )}
        <button className="btn small ghost" onClick={() => void copyAxisImage(view.id)} title="Copy the range shown as a picture (PNG)">
          Copy as image
        </button>
      </div>
      <div className="timeline-body">
        <div className="timeline-axes">
          <TimeAxis
            connectionId={view.id}
            window={window}
            asked={stored}
            onWindow={setWindow}
            onExtent={setExtent}
            revision={view.past ? 0 : view.rev}
            extent={extent}
          />
        </div>
        <LatencyPanel connectionId={view.id} window={brush ?? stored} revision={view.past ? 0 : view.rev} />
      </div>
    </div>
  )
}

/** The precision a range's ends need: a tenth of its length. */
export function stepFor(range: Window): number {
  return Math.max((range.to - range.from) / 10, 1e-6)
}
