import { useLayoutEffect, useRef } from 'react'
import { useWidth } from './useWidth'
import type { TimelineView } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'
import { jumpTimeline } from '../../../store/timelineActions'
import { wallClock } from './axisTicks'
import { readPalette } from './drawTimeline'
import { useThemePaint } from './useThemePaint'
import { useTimelineView } from './timelineFetch'

/**
 * A thin strip of the whole session's time above every tab: how much happened when (failures in red), the
 * range the Timeline shows and the range brushed. A click opens the Timeline there.
 */
export function TimeStrip({ view }: { view: ConnectionView }) {
  const box = useRef<HTMLDivElement>(null)
  const width = useWidth(box)
  const canvas = useRef<HTMLCanvasElement>(null)
  const theme = useThemePaint()
  const shown = useStore((s) => s.timelineWindows[view.id])
  const brush = useStore((s) => s.timeRanges[view.id])
  const answer = useTimelineView(view.id, undefined, Math.max(1, Math.min(2000, Math.round(width / 3))), view.past ? 0 : view.rev)
  const timeline = answer.value

  useLayoutEffect(() => {
    const c = canvas.current
    if (!c || !timeline || width === 0) return
    const height = c.clientHeight
    const dpr = globalThis.devicePixelRatio || 1
    c.width = width * dpr
    c.height = height * dpr
    const ctx = c.getContext('2d')!
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
    drawStrip(ctx, width, height, timeline, readPalette(c), shown, brush)
  }, [timeline, width, theme, shown, brush])

  if (answer.error && !timeline) return null
  const extent = timeline?.extent
  return (
    <div
      ref={box}
      className="time-strip"
      data-testid="time-strip"
      role="button"
      tabIndex={-1}
      title={
        extent
          ? `The whole session, ${wallClock(extent.start, 1000)} – ${wallClock(extent.end, 1000)}: click to open the Timeline there`
          : undefined
      }
      onClick={(e) => {
        if (!extent) return
        const rect = e.currentTarget.getBoundingClientRect()
        const ts = extent.start + ((e.clientX - rect.left) / rect.width) * Math.max(extent.end - extent.start, 1)
        jumpTimeline(view.id, ts, { from: extent.start, to: extent.end })
      }}
    >
      <canvas ref={canvas} />
    </div>
  )
}

/** Counts per bin across every lane (density where the engine counted, spans binned where it listed them). */
function drawStrip(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  timeline: TimelineView,
  palette: ReturnType<typeof readPalette>,
  shown: { from: number; to: number } | undefined,
  brush: { from: number; to: number } | undefined,
): void {
  const { start, end } = timeline.extent
  const span = Math.max(end - start, 1)
  const bins = Math.max(1, Math.round(width / 3))
  const counts = new Float64Array(bins)
  const errors = new Float64Array(bins)
  const binOf = (ts: number) => Math.max(0, Math.min(bins - 1, Math.floor(((ts - start) / span) * bins)))
  for (const lane of timeline.lanes) {
    if (lane.id === 'errors') continue // counted in their own lanes already
    if (lane.density) {
      const n = lane.density.counts.length
      lane.density.counts.forEach((c, i) => (counts[Math.min(bins - 1, Math.floor((i / n) * bins))] += c))
      lane.density.errors.forEach((c, i) => (errors[Math.min(bins - 1, Math.floor((i / n) * bins))] += c))
    } else
      for (const s of lane.spans ?? []) {
        counts[binOf(s.start)]++
        if (s.outcome === 'error') errors[binOf(s.start)]++
      }
  }
  const most = Math.max(1, ...counts)
  const x = (ts: number) => ((ts - start) / span) * width
  ctx.clearRect(0, 0, width, height)
  for (const range of [shown, brush]) {
    if (!range) continue
    ctx.fillStyle = palette.accentBg
    ctx.fillRect(x(range.from), 0, Math.max(x(range.to) - x(range.from), 2), height)
    ctx.strokeStyle = palette.accent
    ctx.strokeRect(x(range.from) + 0.5, 0.5, Math.max(x(range.to) - x(range.from), 2), height - 1)
  }
  const binWidth = width / bins
  for (let i = 0; i < bins; i++) {
    if (!counts[i]) continue
    const h = Math.max(1.5, Math.sqrt(counts[i] / most) * (height - 4))
    ctx.fillStyle = palette.muted
    ctx.fillRect(i * binWidth, height - 2 - h, Math.max(binWidth - 1, 1), h)
    if (errors[i]) {
      ctx.fillStyle = palette.outcome.error
      ctx.fillRect(i * binWidth, 2, Math.max(binWidth - 1, 1), height - 4)
    }
  }
}
