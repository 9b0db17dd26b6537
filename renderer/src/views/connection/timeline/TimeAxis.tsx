import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useWidth } from './useWidth'
import type { TimelineLaneId, TimelineSpan, TimelineView } from '../../../../../shared/contract'
import { showFrame } from '../../../store/actions'
import { useStore } from '../../../store/store'
import { brushTimeRange } from '../../../store/timelineActions'
import { sinceStart, spanDuration, wallClock } from './axisTicks'
import { panBy, zoomAt } from './axisWindow'
import { AXIS_HEIGHT, drawTimeline, laneLayout, readPalette, spanAt, type DrawnSpan } from './drawTimeline'
import { useThemePaint } from './useThemePaint'
import { useTimelineView, type Window } from './timelineFetch'

/** A lane's count in its label: 950, 12K, 1.2M (the tooltip has it whole). */
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 })

export const LANE_LABELS: Record<TimelineLaneId, string> = {
  requests: 'Requests',
  'server-requests': 'Server asks',
  notifications: 'Notifications',
  tasks: 'Tasks',
  streams: 'Streams',
  auth: 'Authorization',
  keepalive: 'Keepalive',
  app: 'App views',
  errors: 'Errors',
}

/** What a span is, when, and how long, as a screen reader says it. */
export function describeSpan(lane: TimelineLaneId, s: TimelineSpan, start: number): string {
  const when = `at ${wallClock(s.start, 1)} (${sinceStart(s.start - start, 1)} since the start)`
  const length =
    s.end !== undefined && s.end > s.start ? `took ${spanDuration(s.end - s.start)}` : s.outcome === 'pending' ? 'still open' : 'an instant'
  const outcome = s.outcome === 'ok' ? '' : `, ${s.outcome === 'error' ? 'failed' : s.outcome}`
  return `${LANE_LABELS[lane]}: ${s.label}, ${when}, ${length}${outcome}`
}

export interface TimeAxisProps {
  connectionId: string
  /** What the session is called here (on a shared axis, each session's row says whose it is). */
  title?: string
  /** The range shown; undefined until the session's extent is known. */
  window: Window | undefined
  /** The range asked for; none (the default): the whole session, which follows a live one without asking for each new extent. */
  asked?: Window
  onWindow(window: Window | undefined): void
  /** The session's extent as the engine answered (the panel fits and zooms to it). */
  onExtent(extent: { start: number; end: number }): void
  /** A live session's events so far: a new one asks again. */
  revision: number
  /** The extent zoom and pan keep in sight (several sessions: all of theirs). */
  extent: { start: number; end: number } | undefined
  /** The lane labels' column, shared by the rows of a shared axis so they line up. */
  labelWidth?: number
}

/**
 * One session on the time axis: its lanes (labels at the left, each collapsible), drawn on one canvas from what
 * the engine answers for the range shown. The wheel zooms at the pointer, a drag pans, shift-drag brushes a range
 * (which Frames, Log and Conversation then show), a click on a span opens its frames; the keyboard does it all
 * (+ − ← → 0, ↑ ↓ to step through spans, Enter to open one, Escape to clear the brush).
 */
export function TimeAxis({ connectionId, title, window, asked, onWindow, onExtent, revision, extent, labelWidth = 144 }: TimeAxisProps) {
  const box = useRef<HTMLDivElement>(null)
  const width = useWidth(box)
  const canvas = useRef<HTMLCanvasElement>(null)
  const theme = useThemePaint()
  const brush = useStore((s) => s.timeRanges[connectionId])
  const frameTs = useStore((s) => s.framesOnAxis[connectionId]?.ts)
  const highlight = useStore((s) => (s.timelineHighlight?.connectionId === connectionId ? s.timelineHighlight : undefined))
  const [collapsed, setCollapsed] = useState<ReadonlySet<TimelineLaneId>>(new Set())
  const [brushing, setBrushing] = useState<Window>()
  const [focused, setFocused] = useState<{ lane: TimelineLaneId; span: TimelineSpan }>()
  const drawn = useRef<DrawnSpan[]>([])
  const answer = useTimelineView(connectionId, asked, Math.max(1, Math.min(8000, Math.round(width / 2))), revision)
  const view: TimelineView | undefined = answer.value

  useEffect(() => {
    if (view) onExtent(view.extent)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the extent changes
  }, [view?.extent.start, view?.extent.end])

  const lanes = useMemo(() => (view?.lanes ?? []).map((l) => l.id), [view])
  const layout = useMemo(() => laneLayout(lanes, collapsed), [lanes, collapsed])
  const height = layout.length ? layout[layout.length - 1].top + layout[layout.length - 1].height : AXIS_HEIGHT + 30

  // Draw whenever what is drawn changes: the answer, the range, the size, the theme, the overlays.
  useLayoutEffect(() => {
    const c = canvas.current
    if (!c || !view || !window || width === 0) return
    const dpr = globalThis.devicePixelRatio || 1
    if (c.width !== width * dpr || c.height !== height * dpr) {
      c.width = width * dpr
      c.height = height * dpr
    }
    const ctx = c.getContext('2d')
    if (!ctx) return
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    const started = performance.now()
    drawn.current = drawTimeline(ctx, { width, height }, view, window, layout, readPalette(c), {
      brush,
      brushing,
      frameTs,
      focused: focused?.span,
      highlight: highlight
        ? (lane, s) =>
            (lane === 'requests' || lane === 'server-requests') &&
            s.end !== undefined &&
            s.end - s.start >= highlight.min &&
            s.end - s.start < highlight.max &&
            (s.label === highlight.method || s.label.startsWith(`${highlight.method} `)) &&
            (highlight.subject === undefined || s.label.includes(highlight.subject))
        : undefined,
    })
    c.dataset.drawMs = (performance.now() - started).toFixed(2)
    c.dataset.spans = String(drawn.current.length)
    c.dataset.from = String(window.from)
    c.dataset.to = String(window.to)
    c.dataset.frameTs = frameTs === undefined ? '' : String(frameTs)
  }, [view, window, width, height, layout, theme, brush, brushing, frameTs, focused, highlight])

  // The wheel zooms at the pointer (a listener that may prevent the page's scroll).
  const latest = useRef({ window, extent, onWindow })
  latest.current = { window, extent, onWindow }
  useEffect(() => {
    const c = canvas.current
    if (!c) return
    const onWheel = (e: WheelEvent) => {
      const { window: w, extent: x, onWindow: set } = latest.current
      if (!w || !x) return
      e.preventDefault()
      const rect = c.getBoundingClientRect()
      const at = w.from + ((e.clientX - rect.left) / rect.width) * (w.to - w.from)
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) set(panBy(w, (e.deltaX / rect.width) * (w.to - w.from), x))
      else set(zoomAt(w, Math.exp(e.deltaY * 0.002), at, x))
    }
    c.addEventListener('wheel', onWheel, { passive: false })
    return () => c.removeEventListener('wheel', onWheel)
  }, [])

  const timeAt = (clientX: number) => {
    const rect = canvas.current!.getBoundingClientRect()
    return window!.from + ((clientX - rect.left) / rect.width) * (window!.to - window!.from)
  }

  const onPointerDown = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!window || !extent || e.button !== 0) return
    const c = e.currentTarget
    c.setPointerCapture(e.pointerId)
    const startX = e.clientX
    const startWindow = window
    const startTs = timeAt(e.clientX)
    const brushMode = e.shiftKey
    let moved = false
    const move = (m: PointerEvent) => {
      if (Math.abs(m.clientX - startX) > 3) moved = true
      if (!moved) return
      if (brushMode) setBrushing({ from: startTs, to: timeAt(m.clientX) })
      else onWindow(panBy(startWindow, ((startX - m.clientX) / c.clientWidth) * (startWindow.to - startWindow.from), extent))
    }
    const up = (u: PointerEvent) => {
      c.removeEventListener('pointermove', move)
      c.removeEventListener('pointerup', up)
      if (brushMode && moved) {
        setBrushing(undefined)
        brushTimeRange(connectionId, { from: startTs, to: timeAt(u.clientX) })
      } else if (!moved) {
        const rect = c.getBoundingClientRect()
        const hit = spanAt(drawn.current, u.clientX - rect.left, u.clientY - rect.top)
        if (hit) {
          setFocused({ lane: hit.lane, span: hit.span })
          showFrame(connectionId, hit.span.seq, { title: hit.span.label })
        }
      }
    }
    c.addEventListener('pointermove', move)
    c.addEventListener('pointerup', up)
  }

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!window || !extent) return
    const span = window.to - window.from
    const centre = (window.from + window.to) / 2
    const act: Record<string, () => void> = {
      '+': () => onWindow(zoomAt(window, 0.5, centre, extent)),
      '=': () => onWindow(zoomAt(window, 0.5, centre, extent)),
      '-': () => onWindow(zoomAt(window, 2, centre, extent)),
      ArrowLeft: () => onWindow(panBy(window, -span * 0.2, extent)),
      ArrowRight: () => onWindow(panBy(window, span * 0.2, extent)),
      '0': () => onWindow(undefined),
      ArrowDown: () => step(1),
      ArrowUp: () => step(-1),
      Enter: () => focused && showFrame(connectionId, focused.span.seq, { title: focused.span.label }),
      Escape: () => (brushTimeRange(connectionId, undefined), setFocused(undefined)),
    }
    const run = act[e.key]
    // Escape closes the frames drawer a span opened before it clears anything here.
    if (!run || (e.key === 'Escape' && useStore.getState().framesDrawer)) return
    e.preventDefault()
    e.stopPropagation()
    run()
  }

  /** Moves the keyboard's focus to the next (or previous) span in time among those drawn. */
  const step = (direction: 1 | -1) => {
    const spans = drawn.current
      .filter((d) => d.x + d.width >= 0 && d.x <= width)
      .sort((a, b) => a.span.start - b.span.start || a.span.seq - b.span.seq)
    if (spans.length === 0) return
    const at = focused ? spans.findIndex((d) => d.span.seq === focused.span.seq && d.lane === focused.lane) : -1
    const next = spans[at === -1 ? (direction > 0 ? 0 : spans.length - 1) : Math.max(0, Math.min(spans.length - 1, at + direction))]
    setFocused({ lane: next.lane, span: next.span })
  }

  const description = focused && view ? describeSpan(focused.lane, focused.span, view.extent.start) : ''
  const totals = new Map(view?.lanes.map((l) => [l.id, l.total]))

  return (
    <div
      className="time-axis"
      style={{ '--label-width': `${labelWidth}px` } as React.CSSProperties}
      data-testid="time-axis"
      data-connection={connectionId}
    >
      <div className="lane-labels" style={{ height }}>
        <div className="axis-title" style={{ height: AXIS_HEIGHT }} title={title}>
          {title}
        </div>
        {layout.map((row) => (
          <button
            key={row.id}
            className={`lane-label${collapsed.has(row.id) ? ' collapsed' : ''}`}
            style={{ height: row.height }}
            aria-expanded={!collapsed.has(row.id)}
            data-lane={row.id}
            title={`${LANE_LABELS[row.id]}: ${(totals.get(row.id) ?? 0).toLocaleString()} in this range (click to ${collapsed.has(row.id) ? 'open' : 'collapse'})`}
            onClick={() => {
              const next = new Set(collapsed)
              if (next.has(row.id)) next.delete(row.id)
              else next.add(row.id)
              setCollapsed(next)
            }}
          >
            <span className="chevron">{collapsed.has(row.id) ? '▸' : '▾'}</span>
            {!collapsed.has(row.id) && (
              <>
                <span className="lane-name">{LANE_LABELS[row.id]}</span>
                <span className="lane-total">{compact.format(totals.get(row.id) ?? 0)}</span>
              </>
            )}
          </button>
        ))}
      </div>
      <div
        ref={box}
        className="lanes"
        tabIndex={0}
        role="group"
        aria-roledescription="time axis"
        aria-label={`${title ? `${title}: ` : ''}the session on a time axis. + and − zoom, ← → pan, 0 fits, ↑ ↓ step through spans, Enter opens one's frames, shift-drag brushes a range`}
        aria-describedby={`span-${connectionId}`}
        onKeyDown={onKeyDown}
      >
        <canvas
          ref={canvas}
          style={{ width, height, cursor: brushing ? 'col-resize' : 'grab' }}
          onPointerDown={onPointerDown}
          data-testid="timeline-canvas"
        />
        {!view && (
          <div className="axis-status muted">
            {answer.error ? `The timeline could not be read: ${answer.error}` : 'Reading the session…'}
          </div>
        )}
        {view && view.lanes.length === 0 && <div className="axis-status muted">Nothing on the axis yet.</div>}
        <div id={`span-${connectionId}`} className="focused-span" aria-live="polite" data-testid="focused-span">
          {description}
        </div>
      </div>
    </div>
  )
}
