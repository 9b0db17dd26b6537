import { useState } from 'react'
import { spanDuration } from './axisTicks'
import { fitWindow, unionExtent, zoomAt } from './axisWindow'
import { copyAxisImage } from './copyImage'
import { TimeAxis } from './TimeAxis'
import type { Window } from './timelineFetch'
import { eventsByTurn } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { useStore } from '../../../store/store'
import './timeline.css'

export interface AxisSide {
  connectionId: string
  title: string
  /** When each turn of its conversation began (epoch ms, by turn number), for aligning by turn. */
  turns?: Map<number, number>
}

type Extent = { start: number; end: number }

/**
 * Several sessions on one time axis, one under the other, zoomed and panned together: aligned by time (the
 * clock: what ran at once lines up), by start (each session from its own beginning), or by a turn (that turn's
 * first message lines up on every side, so one taking three times longer shows). Each row is the session's own
 * Timeline: brush, click through, keyboard.
 */
export function SharedTimeline({ sides, name }: { sides: AxisSide[]; name: string }) {
  const [extents, setExtents] = useState<Record<string, Extent>>({})
  const [align, setAlign] = useState<'time' | 'start' | 'turn'>('time')
  const [turn, setTurn] = useState<number>()
  const [chosen, setChosen] = useState<Window>()
  // Turns every side has: the ones a side can be aligned by.
  const common = sides.every((s) => s.turns)
    ? [...(sides[0].turns?.keys() ?? [])].filter((t) => sides.every((s) => s.turns!.has(t))).sort((a, b) => a - b)
    : []
  const alignTurn = turn !== undefined && common.includes(turn) ? turn : common[0]
  // Aligned, every side is drawn in the first side's time: each shifted by how much later it began (or reached the turn).
  const anchor = (side: AxisSide | undefined): number | undefined =>
    side === undefined
      ? undefined
      : align === 'start'
        ? extents[side.connectionId]?.start
        : align === 'turn' && alignTurn !== undefined
          ? side.turns?.get(alignTurn)
          : undefined
  const base = anchor(sides[0])
  const offset = (id: string) => {
    const at = anchor(sides.find((s) => s.connectionId === id))
    return at === undefined || base === undefined ? 0 : at - base
  }
  const shifted = sides.map((s) => {
    const e = extents[s.connectionId]
    return e && { start: e.start - offset(s.connectionId), end: e.end - offset(s.connectionId) }
  })
  const extent = unionExtent(shifted)
  const window = chosen ?? (extent && fitWindow(extent))
  const centre = window && (window.from + window.to) / 2
  // Live sessions: each row asks again as its connection's events come.
  const revisions = useStore((s) => sides.map((side) => s.connections[side.connectionId]?.rev ?? 0).join(','))
    .split(',')
    .map(Number)
  return (
    <div className="shared-timeline" data-testid="shared-timeline">
      <div className="toolbar timeline-toolbar">
        <span className="muted">Aligned by</span>
        <div className="segmented" role="radiogroup" aria-label="Align the sessions by">
          {(common.length ? (['time', 'start', 'turn'] as const) : (['time', 'start'] as const)).map((a) => (
            <button
              key={a}
              role="radio"
              aria-checked={align === a}
              className={`btn small${align === a ? ' active' : ''}`}
              onClick={() => (setAlign(a), setChosen(undefined))}
              title={
                a === 'time'
                  ? 'The clock: what happened at once lines up'
                  : a === 'start'
                    ? 'Each session from its own start'
                    : 'A turn’s first message lines up'
              }
            >
              {a}
            </button>
          ))}
        </div>
        {align === 'turn' && (
          <select
            className="input"
            aria-label="Turn to align"
            value={alignTurn}
            onChange={(e) => (setTurn(Number(e.target.value)), setChosen(undefined))}
          >
            {common.map((t) => (
              <option key={t} value={t}>
                turn {t}
              </option>
            ))}
          </select>
        )}
        <button className="btn small" onClick={() => setChosen(undefined)} disabled={!chosen} title="Fit every session (0)">
          Fit
        </button>
        <button
          className="btn small"
          aria-label="Zoom out"
          disabled={!window || !extent}
          onClick={() => setChosen(zoomAt(window!, 2, centre!, extent!))}
        >
          −
        </button>
        <button
          className="btn small"
          aria-label="Zoom in"
          disabled={!window || !extent}
          onClick={() => setChosen(zoomAt(window!, 0.5, centre!, extent!))}
        >
          +
        </button>
        {window && <span className="muted mono">{spanDuration(window.to - window.from)} shown</span>}
        <span className="spacer" />
        <button className="btn small ghost" onClick={() => void copyAxisImage(name)} title="Copy the range shown as a picture (PNG)">
          Copy as image
        </button>
      </div>
      <div className="timeline-axes">
        {sides.map((side, i) => {
          const shift = offset(side.connectionId)
          return (
            <TimeAxis
              key={side.connectionId}
              connectionId={side.connectionId}
              title={side.title}
              window={window && { from: window.from + shift, to: window.to + shift }}
              asked={chosen && { from: chosen.from + shift, to: chosen.to + shift }}
              onWindow={(w) => setChosen(w && { from: w.from - shift, to: w.to - shift })}
              onExtent={(e) => setExtents((all) => ({ ...all, [side.connectionId]: e }))}
              revision={revisions[i]}
              extent={extent && { start: extent.start + shift, end: extent.end + shift }}
              labelWidth={160}
            />
          )
        })}
      </div>
    </div>
  )
}

/** When each turn of a connection's conversation began: its first message's time. */
export function turnStarts(view: ConnectionView): Map<number, number> {
  const starts = new Map<number, number>()
  for (const [turn, events] of eventsByTurn(view.conversation)) starts.set(turn, Math.min(...events.map((e) => e.ts)))
  return starts
}
