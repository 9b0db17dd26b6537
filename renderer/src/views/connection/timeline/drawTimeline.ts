import type { SpanOutcome, TimelineLane, TimelineLaneId, TimelineSpan, TimelineView } from '../../../../../shared/contract'
import { axisTicks } from './axisTicks'
import type { Window } from './timelineFetch'

/** Heights (CSS px): the axis's two rows of labels, a lane open, a lane collapsed. */
export const AXIS_HEIGHT = 36
export const LANE_HEIGHT = 30
export const COLLAPSED_HEIGHT = 12

/** The theme's colours, read from its tokens (styles.css). */
export interface Palette {
  text: string
  muted: string
  border: string
  panel: string
  panel2: string
  accent: string
  accentBg: string
  outcome: Record<SpanOutcome, string>
}

export function readPalette(element: Element): Palette {
  const css = getComputedStyle(element)
  const token = (name: string) => css.getPropertyValue(name).trim()
  return {
    text: token('--text'),
    muted: token('--muted'),
    border: token('--border'),
    panel: token('--panel'),
    panel2: token('--panel-2'),
    accent: token('--accent'),
    accentBg: token('--accent-bg'),
    outcome: { ok: token('--ok'), error: token('--bad'), pending: token('--busy'), cancelled: token('--idle') },
  }
}

/** Where each lane sits (CSS px from the canvas's top). */
export function laneLayout(
  lanes: TimelineLaneId[],
  collapsed: ReadonlySet<TimelineLaneId>,
): { id: TimelineLaneId; top: number; height: number }[] {
  let top = AXIS_HEIGHT
  return lanes.map((id) => {
    const height = collapsed.has(id) ? COLLAPSED_HEIGHT : LANE_HEIGHT
    const row = { id, top, height }
    top += height
    return row
  })
}

/** A span as drawn, for clicks and the keyboard to find. */
export interface DrawnSpan {
  lane: TimelineLaneId
  span: TimelineSpan
  x: number
  width: number
  top: number
  height: number
}

export interface Overlays {
  /** The brushed range. */
  brush?: Window
  /** A range being brushed now. */
  brushing?: Window
  /** The frame selected in Frames. */
  frameTs?: number
  /** The span the keyboard is on. */
  focused?: TimelineSpan
  /** Spans a latency bucket picked out. */
  highlight?: (lane: TimelineLaneId, span: TimelineSpan) => boolean
}

/**
 * Draws the axis and the lanes of `view` for `window` on a canvas `width`×`height` CSS px: spans coloured by
 * outcome (an open one reaching to the session's end), ticks for what has no length, marks inside spans (a
 * progress span filled as far as it got), density bars where the engine counted instead. Returns the spans
 * drawn, for hit-testing. Work: one pass over what the view holds (a few thousand spans per lane at most).
 */
export function drawTimeline(
  ctx: CanvasRenderingContext2D,
  size: { width: number; height: number },
  view: TimelineView,
  window: Window,
  layout: ReturnType<typeof laneLayout>,
  palette: Palette,
  overlays: Overlays,
): DrawnSpan[] {
  const { width, height } = size
  const span = Math.max(window.to - window.from, 1e-9)
  const x = (ts: number) => ((ts - window.from) / span) * width
  ctx.clearRect(0, 0, width, height)
  ctx.font = '11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'
  ctx.textBaseline = 'middle'

  // Lane bands and separators.
  layout.forEach((row, i) => {
    if (i % 2 === 1) {
      ctx.fillStyle = palette.panel2
      ctx.fillRect(0, row.top, width, row.height)
    }
  })

  // The axis: grid lines down through the lanes, two rows of labels.
  const { ticks } = axisTicks(window.from, window.to, width, view.extent.start)
  ctx.strokeStyle = palette.border
  ctx.lineWidth = 1
  ctx.beginPath()
  for (const tick of ticks) {
    const tx = Math.round(x(tick.ts)) + 0.5
    ctx.moveTo(tx, AXIS_HEIGHT - 8)
    ctx.lineTo(tx, height)
  }
  ctx.moveTo(0, AXIS_HEIGHT - 0.5)
  ctx.lineTo(width, AXIS_HEIGHT - 0.5)
  ctx.stroke()
  for (const tick of ticks) {
    const tx = x(tick.ts) + 4
    ctx.fillStyle = palette.text
    ctx.fillText(tick.wall, tx, 9)
    ctx.fillStyle = palette.muted
    ctx.fillText(tick.since, tx, 23)
  }

  // Where the session begins and ends, shaded outside.
  ctx.fillStyle = palette.accentBg
  const startX = x(view.extent.start)
  const endX = x(view.extent.end)
  if (startX > 0) ctx.fillRect(0, AXIS_HEIGHT, Math.min(startX, width), height - AXIS_HEIGHT)
  if (endX < width) ctx.fillRect(Math.max(endX, 0), AXIS_HEIGHT, width - Math.max(endX, 0), height - AXIS_HEIGHT)

  const drawn: DrawnSpan[] = []
  const lanes = new Map(view.lanes.map((lane) => [lane.id, lane]))
  for (const row of layout) {
    const lane = lanes.get(row.id)
    if (!lane) continue
    const collapsed = row.height < LANE_HEIGHT
    const top = row.top + (collapsed ? 2 : 5)
    const barHeight = row.height - (collapsed ? 4 : 10)
    if (lane.density) drawDensity(ctx, lane, view.range, x, top, barHeight, palette)
    else
      for (const s of lane.spans ?? [])
        drawn.push(drawSpan(ctx, lane.id, s, x, view.extent.end, width, top, barHeight, collapsed, palette, overlays))
  }

  // Overlays: the brushed range, the one being brushed, the frame selected in Frames.
  for (const range of [overlays.brush, overlays.brushing]) {
    if (!range) continue
    const left = x(Math.min(range.from, range.to))
    const right = x(Math.max(range.from, range.to))
    ctx.fillStyle = palette.accentBg
    ctx.fillRect(left, 0, Math.max(right - left, 1), height)
    ctx.strokeStyle = palette.accent
    ctx.strokeRect(Math.round(left) + 0.5, 0.5, Math.max(Math.round(right - left), 1), height - 1)
  }
  if (overlays.frameTs !== undefined) {
    const fx = Math.round(x(overlays.frameTs)) + 0.5
    if (fx >= 0 && fx <= width) {
      ctx.strokeStyle = palette.accent
      ctx.lineWidth = 2
      ctx.beginPath()
      ctx.moveTo(fx, AXIS_HEIGHT - 6)
      ctx.lineTo(fx, height)
      ctx.stroke()
      ctx.fillStyle = palette.accent
      ctx.beginPath()
      ctx.moveTo(fx - 5, AXIS_HEIGHT - 8)
      ctx.lineTo(fx + 5, AXIS_HEIGHT - 8)
      ctx.lineTo(fx, AXIS_HEIGHT - 1)
      ctx.fill()
      ctx.lineWidth = 1
    }
  }
  return drawn
}

function drawSpan(
  ctx: CanvasRenderingContext2D,
  lane: TimelineLaneId,
  s: TimelineSpan,
  x: (ts: number) => number,
  sessionEnd: number,
  width: number,
  top: number,
  barHeight: number,
  collapsed: boolean,
  palette: Palette,
  overlays: Overlays,
): DrawnSpan {
  const colour = palette.outcome[s.outcome]
  const open = s.end === undefined && s.outcome === 'pending'
  const tick = (s.end === undefined && !open) || s.end === s.start
  const left = x(s.start)
  const right = tick ? left : x(open ? sessionEnd : s.end!)
  const highlighted = overlays.highlight?.(lane, s)
  const dim = overlays.highlight && !highlighted
  ctx.globalAlpha = dim ? 0.25 : 1
  if (tick) {
    // Something with no length: a tick, a diamond on top so it shows among many.
    ctx.fillStyle = colour
    ctx.fillRect(Math.round(left) - 0.5, top, 2, barHeight)
    if (!collapsed) {
      ctx.beginPath()
      ctx.moveTo(left, top - 3)
      ctx.lineTo(left + 3, top)
      ctx.lineTo(left, top + 3)
      ctx.lineTo(left - 3, top)
      ctx.fill()
    }
  } else {
    const w = Math.max(right - left, 2)
    const fill = s.marks?.reduce((most, m) => (m.fill === undefined ? most : Math.max(most, m.fill)), -1) ?? -1
    if (fill >= 0) {
      // Progress: the span in outline, filled as far as it got.
      ctx.fillStyle = colour
      ctx.globalAlpha = (dim ? 0.25 : 1) * 0.3
      ctx.fillRect(left, top, w, barHeight)
      ctx.globalAlpha = dim ? 0.25 : 1
      ctx.fillRect(left, top, w * Math.min(fill, 1), barHeight)
    } else {
      ctx.fillStyle = colour
      ctx.globalAlpha = (dim ? 0.25 : 1) * (open ? 0.55 : 0.85)
      ctx.fillRect(left, top, w, barHeight)
      ctx.globalAlpha = dim ? 0.25 : 1
    }
    if (open) {
      // Still open: a dashed end, it has not come back.
      ctx.strokeStyle = colour
      ctx.setLineDash([3, 3])
      ctx.strokeRect(left + 0.5, top + 0.5, w - 1, barHeight - 1)
      ctx.setLineDash([])
    }
    // Marks inside: a task's states, a stream's events, progress reports.
    if (s.marks && !collapsed) {
      ctx.fillStyle = palette.text
      let lastX = -Infinity
      for (const m of s.marks) {
        const mx = x(m.ts)
        if (mx - lastX < 2 || mx < left || mx > left + w) continue
        lastX = mx
        ctx.fillRect(Math.round(mx), top + barHeight - 5, 1, 5)
      }
    }
    // Its label, where it fits.
    if (!collapsed && w > 40) {
      const textLeft = Math.max(left, 0) + 4
      const room = Math.min(left + w, width) - textLeft - 4
      if (room > 24) {
        ctx.fillStyle = palette.panel
        ctx.save()
        ctx.beginPath()
        ctx.rect(textLeft, top, room, barHeight)
        ctx.clip()
        ctx.fillStyle = readableOn(colour) ? '#0b1220' : '#ffffff'
        ctx.fillText(s.label, textLeft, top + barHeight / 2)
        ctx.restore()
      }
    }
  }
  if (overlays.focused === s || highlighted) {
    ctx.globalAlpha = 1
    ctx.strokeStyle = palette.text
    ctx.lineWidth = 2
    const w = tick ? 6 : Math.max(right - left, 2)
    ctx.strokeRect((tick ? left - 3 : left) - 1, top - 2, w + 2, barHeight + 4)
    ctx.lineWidth = 1
  }
  ctx.globalAlpha = 1
  return { lane, span: s, x: tick ? left - 4 : left, width: tick ? 8 : Math.max(right - left, 4), top, height: barHeight }
}

/**
 * Bars of counts per bin, scaled to the lane's fullest bin, failures in red at the bottom. The bins cut the range
 * the engine answered for, which is not the range drawn while a newer answer is on its way (or when it answered
 * for the whole session): each bin is placed by its time.
 */
function drawDensity(
  ctx: CanvasRenderingContext2D,
  lane: TimelineLane,
  range: { from: number; to: number },
  x: (ts: number) => number,
  top: number,
  barHeight: number,
  palette: Palette,
): void {
  const { counts, errors } = lane.density!
  const bins = counts.length
  const most = Math.max(1, ...counts)
  const binSpan = (range.to - range.from) / bins
  const binWidth = x(range.from + binSpan) - x(range.from)
  for (let i = 0; i < bins; i++) {
    if (!counts[i]) continue
    const left = x(range.from + i * binSpan)
    // A square root: a bin of one still shows beside a bin of thousands.
    const h = Math.max(1, Math.sqrt(counts[i] / most) * barHeight)
    ctx.fillStyle = palette.outcome.ok
    ctx.globalAlpha = 0.75
    ctx.fillRect(left, top + barHeight - h, Math.max(binWidth - 0.5, 1), h)
    if (errors[i]) {
      const eh = Math.max(1, (errors[i] / counts[i]) * h)
      ctx.fillStyle = palette.outcome.error
      ctx.globalAlpha = 1
      ctx.fillRect(left, top + barHeight - eh, Math.max(binWidth - 0.5, 1), eh)
    }
  }
  ctx.globalAlpha = 1
}

/** Whether dark text reads on `colour` (a hex token): light colours get dark text. */
function readableOn(colour: string): boolean {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour)
  if (!m) return true
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16) / 255)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45
}

/** The span at (px, py), nearest first; undefined when none is within a few pixels. */
export function spanAt(drawn: DrawnSpan[], px: number, py: number): DrawnSpan | undefined {
  let best: DrawnSpan | undefined
  let bestDistance = 4
  for (const d of drawn) {
    if (py < d.top - 3 || py > d.top + d.height + 3) continue
    const distance = px < d.x ? d.x - px : px > d.x + d.width ? px - d.x - d.width : 0
    if (distance < bestDistance || (distance === 0 && bestDistance === 0 && best && d.width < best.width)) {
      best = d
      bestDistance = distance
    }
  }
  return best
}
