import { useEffect, useRef, useState } from 'react'
import { firstAbove, visibleName, type FrameEvent } from '../../../../../shared/contract'
import { frameNumber, type ConnectionView } from '../../../store/connectionView'
import type { Frames } from '../../../store/rowLists'
import { CopyButton } from '../../../components/CopyButton'
import { useFixedRows } from '../../../components/useFixedRows'
import { bytes, clock, ms } from '../../../components/format'
import { clearFrameFocus, keepFramesFilter } from '../../../store/actions'
import { NO_FRAMES_FILTER, useStore, type FramesFilter } from '../../../store/store'
import { useIncrementalFilter } from './useIncrementalFilter'
import { FrameDetail, pairOf } from './FrameDetail'
import { framePayloads } from '../../../store/framePayloads'
import './frames.css'

const ROW = 26
/** How many characters of a frame's id its column shows: A2A's ids (`http-12`, `grpc-3`, an agent's UUIDs) get a wider one. */
const ID_CHARS = { narrow: 4, wide: 9 }

/**
 * Every frame on the wire (or those of `frames`), virtualized: filter by method, direction and kind; inspect
 * one as JSON. With `filterKey` (a target's page), the filter is kept in the store under it, so it is as the
 * user left it when they come back to the tab; without (a drawer), each opening starts unfiltered.
 */
export function FramesPanel({ view, frames = view.frames, filterKey }: { view: ConnectionView; frames?: Frames; filterKey?: string }) {
  const kept = useStore((s) => (filterKey === undefined ? undefined : s.framesFilters[filterKey]))
  const [own, setOwn] = useState<FramesFilter>(NO_FRAMES_FILTER)
  const filter = filterKey === undefined ? own : (kept ?? NO_FRAMES_FILTER)
  const change = (next: Partial<FramesFilter>) =>
    filterKey === undefined ? setOwn({ ...filter, ...next }) : keepFramesFilter(filterKey, { ...filter, ...next })
  const { text, direction, kind, hideProbes, wire } = filter
  // A link from elsewhere (Compare, Replay) may ask for one frame: select it and stop following.
  const focus = useStore((s) => (s.focusFrame?.connectionId === view.id ? s.focusFrame.seq : undefined))
  const focusIndex = focus === undefined ? undefined : frames.indexOfSeq(focus)
  const [selected, setSelected] = useState<number | undefined>(focusIndex !== undefined && focusIndex >= 0 ? focusIndex : undefined)
  const [follow, setFollow] = useState(selected === undefined)
  const scroller = useRef<HTMLDivElement>(null)
  // A resend's request, selected once its frame arrives (the command's answer may come before its events).
  const [selectSeq, setSelectSeq] = useState<number | undefined>()
  const filterInput = useRef<HTMLInputElement>(null)

  const needle = text.trim().toLowerCase()
  const filtered = !needle && !direction && !kind && !hideProbes && !wire
  const matches = methodFilter(needle)
  const indices = useIncrementalFilter(
    frames,
    `${needle}|${direction}|${kind}|${hideProbes}|${wire}`,
    filtered
      ? undefined
      : (i) => {
          // Read as rows: filtering a long backlog makes no frame events.
          const shape = frames.shapeAt(i)
          const rest = frames.restAt(i)
          return (
            (!direction || shape.direction === direction) &&
            (!kind || shape.kind === kind) &&
            !(hideProbes && rest?.probe) &&
            (!wire || (wire === 'view') === (shape.protocol === 'mcp-app')) &&
            matches(shape.method, rest?.subject)
          )
        },
  )
  const count = indices.length
  const { rows, totalSize, scrollToIndex } = useFixedRows(scroller, count, ROW)
  const wideIds = view.protocol === 'a2a'

  useEffect(() => {
    if (follow && count > 0) scrollToIndex(count - 1, 'end')
  }, [count, follow, scrollToIndex])

  useEffect(() => {
    if (focus === undefined) return
    if (selected !== undefined) scrollToIndex(selected, 'center')
    clearFrameFocus()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the tab opens on a frame another view linked to
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement)) {
        e.preventDefault()
        filterInput.current?.focus()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  useEffect(() => {
    if (selectSeq === undefined) return
    const index = frames.indexOfSeq(selectSeq)
    if (index === -1) return
    setSelectSeq(undefined)
    select(index)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the frame arrives
  }, [selectSeq, frames.length])

  const selectedPosition = selected === undefined ? -1 : sortedIndexOf(indices, selected)
  const move = (delta: number) => {
    if (count === 0) return
    const next = Math.max(0, Math.min(count - 1, (selectedPosition === -1 ? (delta > 0 ? -1 : count) : selectedPosition) + delta))
    setSelected(indices[next])
    setFollow(false)
    scrollToIndex(next)
  }
  const pair = selected !== undefined && frames.at(selected) ? pairOf(frames, selected) : undefined
  /** Selects a frame by its position in the connection, showing it even if the filter hides it. */
  const select = (index: number) => {
    setSelected(index)
    setFollow(false)
    const position = sortedIndexOf(indices, index)
    if (position !== -1) scrollToIndex(position)
  }

  return (
    <div className="panel fill">
      <div className="frames">
        <div className={`frames-list${wideIds ? ' wide-ids' : ''}`}>
          <div className="toolbar">
            <input
              ref={filterInput}
              type="search"
              placeholder="Filter method or tool, -exclude  /"
              value={text}
              onChange={(e) => change({ text: e.target.value })}
              aria-label="Filter frames by method"
              title="Words match a frame's method or what it is about (a tool, a skill, a resource); -word leaves those out, e.g. -tools/list"
            />
            <select value={direction} onChange={(e) => change({ direction: e.target.value as typeof direction })} aria-label="Direction">
              <option value="">both directions</option>
              <option value="out">▲ sent</option>
              <option value="in">▼ received</option>
            </select>
            <select value={kind} onChange={(e) => change({ kind: e.target.value })} aria-label="Kind">
              <option value="">all kinds</option>
              <option value="request">requests</option>
              <option value="response">responses</option>
              <option value="notification">notifications</option>
              <option value="error">errors</option>
              <option value="stream-event">stream events</option>
              <option value="trailers">gRPC trailers</option>
            </select>
            {Object.keys(view.appFrames).length > 0 && (
              <select value={wire} onChange={(e) => change({ wire: e.target.value as typeof wire })} aria-label="Whose messages">
                <option value="">server and App views</option>
                <option value="server">server only</option>
                <option value="view">App views only</option>
              </select>
            )}
            <label
              className="muted"
              style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}
              title="Keepalive probes and their answers"
            >
              <input
                type="checkbox"
                checked={hideProbes}
                onChange={(e) => change({ hideProbes: e.target.checked })}
                aria-label="Hide keepalive probes"
              />{' '}
              hide probes
            </label>
            <label className="muted" style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}>
              <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow
            </label>
            <span className="spacer" />
            <span className="muted" data-testid="frame-count">
              {filtered
                ? `${frames.length.toLocaleString()} frames`
                : `${count.toLocaleString()} of ${frames.length.toLocaleString()} frames`}
            </span>
            <CopyButton
              label="Copy"
              className="btn small ghost"
              value={() =>
                framePayloads(
                  view.id,
                  indices.map((i) => frames.at(i)),
                )
              }
            />
          </div>
          <div className="row head">
            <span>#</span>
            <span>time</span>
            <span />
            <span>kind</span>
            <span>method</span>
            <span>id</span>
            <span className="num">size</span>
            <span className="num">latency</span>
          </div>
          <div
            ref={scroller}
            className="rows"
            tabIndex={0}
            role="listbox"
            aria-label="Frames"
            onWheel={() => setFollow(false)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'j') {
                e.preventDefault()
                move(1)
              } else if (e.key === 'ArrowUp' || e.key === 'k') {
                e.preventDefault()
                move(-1)
              } else if (e.key === 'End') {
                setFollow(true)
                setSelected(undefined)
              }
            }}
          >
            {count === 0 ? (
              <div className="empty">{frames.length === 0 ? 'No frames yet.' : 'No frame matches the filter.'}</div>
            ) : (
              <div style={{ height: totalSize, position: 'relative' }}>
                {rows.map((item) => {
                  const index = indices[item.index]
                  const f = frames.at(index)
                  const paired = pair?.index === index
                  return (
                    <div
                      key={f.seq}
                      role="option"
                      aria-selected={selected === index}
                      className={`row${selected === index ? ' selected' : ''}${paired ? ' paired' : ''}${f.probe ? ' probe' : ''}`}
                      style={{ transform: `translateY(${item.start}px)` }}
                      onClick={() => (setSelected(index), setFollow(false))}
                      data-method={f.method}
                      data-direction={f.direction}
                      data-probe={f.probe ? 'true' : undefined}
                      title={f.probe ? 'keepalive probe' : undefined}
                    >
                      <span className="muted">{frames.first + index + 1}</span>
                      <span className="muted">{clock(f.ts)}</span>
                      <span className={`dir ${f.direction}`} title={directionLabel(f)}>
                        {f.direction === 'out' ? '▲' : '▼'}
                      </span>
                      <span className={`kind ${f.kind}`}>{f.kind}</span>
                      <span className="frame-method">
                        {f.view && (
                          <span className="view-mark" title={`MCP App view ${f.view.uri}: a message over postMessage`}>
                            view
                          </span>
                        )}
                        {f.resendOf !== undefined && (
                          <span className="resend-mark" title={resentTitle(view, f.resendOf)}>
                            resent
                          </span>
                        )}
                        {visibleName(f.method ?? (f.http ? `${f.http.method} ${new URL(f.http.url).pathname}` : ''))}
                        {f.subject && <span className="subject"> · {visibleName(f.subject)}</span>}
                        {f.probe && <span className="probe-mark">probe</span>}
                      </span>
                      <FrameId id={f.id} chars={wideIds ? ID_CHARS.wide : ID_CHARS.narrow} />
                      <span className="num muted">{bytes(f.bytes)}</span>
                      <span className="num">{ms(f.latencyMs)}</span>
                    </div>
                  )
                })}
              </div>
            )}
          </div>
        </div>
        <FrameDetail view={view} frames={frames} selected={selected} pair={pair} onSelect={select} onSent={setSelectSeq} />
      </div>
    </div>
  )
}

/** Where a resent request came from, by the number of the frame it sent again. */
function resentTitle(view: ConnectionView, resendOf: number): string {
  const number = frameNumber(view, resendOf)
  return number === undefined ? 'sent again from an earlier request' : `sent again from #${number}`
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/**
 * A frame's id in its column (an agent chose it: hidden characters shown): whole when it fits, else its
 * first characters (never half of one) and …, the whole as its tooltip.
 */
function FrameId({ id, chars }: { id: FrameEvent['id']; chars: number }) {
  if (id === undefined) return <span />
  const text = visibleName(String(id))
  const glyphs = Array.from(graphemes.segment(text), (g) => g.segment)
  const cut = glyphs.length > chars
  return (
    <span className="muted frame-id" title={cut ? text : undefined}>
      {cut ? `${glyphs.slice(0, chars - 1).join('')}…` : text}
    </span>
  )
}

/** Which way a frame went, in words: the server's wire, or between an App view and Parallax. */
function directionLabel(frame: FrameEvent): string {
  if (frame.view) return frame.direction === 'out' ? 'to the view' : 'from the view'
  return frame.direction === 'out' ? 'sent' : 'received'
}

/**
 * The text filter: words match a frame's method or subject (any of them); `-word` excludes frames whose
 * method or subject contains it. An empty filter matches everything. Most frames have a method and no
 * subject, and few methods recur: their answer is remembered per method.
 */
function methodFilter(needle: string): (method: string | undefined, subject: string | undefined) => boolean {
  const words = needle.split(/\s+/).filter(Boolean)
  const include = words.filter((w) => !w.startsWith('-'))
  const exclude = words.filter((w) => w.startsWith('-') && w.length > 1).map((w) => w.slice(1))
  const test = (method: string | undefined, subject: string | undefined) => {
    const text = `${method ?? ''} ${subject ?? ''}`.toLowerCase()
    return (include.length === 0 || include.some((w) => text.includes(w))) && !exclude.some((w) => text.includes(w))
  }
  const byMethod = new Map<string | undefined, boolean>()
  return (method, subject) => {
    if (subject !== undefined) return test(method, subject)
    let answer = byMethod.get(method)
    if (answer === undefined) byMethod.set(method, (answer = test(method, undefined)))
    return answer
  }
}

/** Position of `value` in an ascending array of whole numbers, or -1: the filtered indices are always ascending. */
function sortedIndexOf(sorted: number[], value: number): number {
  const at = firstAbove(sorted.length, (i) => sorted[i], value - 1)
  return sorted[at] === value ? at : -1
}
