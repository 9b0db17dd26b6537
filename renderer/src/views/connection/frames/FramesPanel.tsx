import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { filtersNothing, visibleName, type FrameEvent } from '../../../../../shared/contract'
import { frameNumber, type ConnectionView } from '../../../store/connectionView'
import type { Frames } from '../../../store/rowLists'
import { CopyButton } from '../../../components/CopyButton'
import { useFixedRows } from '../../../components/useFixedRows'
import { bytes, clock, ms } from '../../../components/format'
import { clearFrameFocus, keepFramesFilter } from '../../../store/actions'
import { locateFrame } from '../../../store/frameLocate'
import { hasSessionSearch } from '../../../store/sessionSearch'
import { NO_FRAMES_FILTER, showToast, useStore, type FramesFilter } from '../../../store/store'
import { SessionSearchBar } from '../search/SessionSearchBar'
import { TimeRangeChip } from '../timeline/TimeRangeChip'
import { noteFrameOnAxis } from '../../../store/timelineActions'
import { FrameDetail, pairOf } from './FrameDetail'
import { useShownFrames, type ShownFrames } from './useShownFrames'
import { framePayloads } from '../../../store/framePayloads'
import './frames.css'

const ROW = 26
/** How many characters of a frame's id its column shows: A2A's ids (`http-12`, `grpc-3`, an agent's UUIDs) get a wider one. */
const ID_CHARS = { narrow: 4, wide: 9 }
/** Frames Copy takes at once (their payloads fetched): more is a filter or an export away. */
const COPY_LIMIT = 10_000

/**
 * Every frame on the wire (or those of `frames`), virtualized: filter by method, direction and kind; go to a
 * frame by its number; search the whole session; inspect one as JSON. A long session's frames are fetched by
 * position as they are shown (a placeholder row meanwhile) and filtered by the engine (useShownFrames). With
 * `filterKey` (a target's page), the filter is kept in the store under it, so it is as the user left it when
 * they come back to the tab; without (a drawer), each opening starts unfiltered.
 */
export function FramesPanel({ view, frames = view.frames, filterKey }: { view: ConnectionView; frames?: Frames; filterKey?: string }) {
  const kept = useStore((s) => (filterKey === undefined ? undefined : s.framesFilters[filterKey]))
  const [own, setOwn] = useState<FramesFilter>(NO_FRAMES_FILTER)
  const chosen = filterKey === undefined ? own : (kept ?? NO_FRAMES_FILTER)
  const change = (next: Partial<FramesFilter>) =>
    filterKey === undefined ? setOwn({ ...chosen, ...next }) : keepFramesFilter(filterKey, { ...chosen, ...next })
  // A range brushed on the Timeline narrows the page's list (not a drawer's, which shows what was asked of it).
  const brushed = useStore((s) => (filterKey === undefined ? undefined : s.timeRanges[view.id]))
  const filter = brushed ? { ...chosen, ...brushed } : chosen
  const { text, direction, kind, hideProbes, wire } = filter
  useSyncExternalStore(frames.list.subscribe, () => frames.list.changes)
  const shown = useShownFrames(frames, filter)
  const count = shown.count
  // A link from elsewhere (Compare, Replay) may ask for one frame: select it and stop following.
  const focus = useStore((s) => (s.focusFrame?.connectionId === view.id ? s.focusFrame.seq : undefined))
  const [selected, setSelected] = useState<number | undefined>(() => {
    const at = focus === undefined ? -1 : frames.indexOfSeq(focus)
    return at === -1 ? undefined : at
  })
  const [follow, setFollow] = useState(focus === undefined)
  const [searching, setSearching] = useState(() => hasSessionSearch(view.id))
  const scroller = useRef<HTMLDivElement>(null)
  // A resend's request, selected once its frame arrives (the command's answer may come before its events).
  const [selectSeq, setSelectSeq] = useState<number | undefined>()
  const filterInput = useRef<HTMLInputElement>(null)
  const filtered = !filtersNothing(filter)
  const { rows, totalSize, scrollToIndex } = useFixedRows(scroller, count, ROW)
  const wideIds = view.protocol === 'a2a'

  useEffect(() => {
    if (rows.length) shown.want(rows[0].index, rows[rows.length - 1].index + 1)
  })

  useEffect(() => {
    if (follow && count > 0) scrollToIndex(count - 1, 'end')
  }, [count, follow, scrollToIndex])

  // A new filter: the selected frame stays in sight when it is listed.
  const filterKeyText = JSON.stringify(filter)
  useEffect(() => {
    const rank = selected === undefined ? -1 : shown.rankOf(selected)
    if (!follow && rank !== -1) scrollToIndex(rank, 'center')
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when the filter (or what it found) changes
  }, [filterKeyText, shown.counting])

  /** Selects a frame by its position, showing it even if the filter hides it (then it is not scrolled to). */
  const select = (index: number, align: 'auto' | 'center' = 'auto') => {
    setSelected(index)
    setFollow(false)
    const rank = shown.rankOf(index)
    if (rank !== -1) scrollToIndex(rank, align)
  }

  useEffect(() => {
    if (focus === undefined) return
    clearFrameFocus()
    if (selected !== undefined) return scrollToIndex(shown.rankOf(selected), 'center')
    // Among frames not held (a long session): the engine says where it is.
    void locateFrame(frames.list, focus).then((position) => {
      const index = position === undefined ? -1 : position - frames.first
      if (index >= 0 && index < frames.length) select(index, 'center')
    })
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

  useEffect(() => {
    if (selected !== undefined && !frames.at(selected)) void frames.want(selected, selected + 1)
  })

  const selectedRank = selected === undefined ? -1 : shown.rankOf(selected)
  const move = (delta: number) => {
    if (count === 0) return
    const next = Math.max(0, Math.min(count - 1, (selectedRank === -1 ? (delta > 0 ? -1 : count) : selectedRank) + delta))
    const position = shown.positionAt(next)
    if (position === undefined) return shown.want(next, next + 1) // its row comes: the key again moves on
    setSelected(position)
    setFollow(false)
    scrollToIndex(next)
  }
  const pair = selected !== undefined && frames.at(selected) ? pairOf(frames, selected) : undefined
  const selectedFrame = selected === undefined ? undefined : frames.at(selected)
  useEffect(() => {
    if (filterKey !== undefined) noteFrameOnAxis(view.id, selectedFrame)
  }, [filterKey, view.id, selectedFrame])
  const wholeCount = frames.length.toLocaleString()

  return (
    <div className="panel fill">
      <div className="frames">
        <div
          className={`frames-list${wideIds ? ' wide-ids' : ''}`}
          style={{ '--number-width': `${numberWidth(frames.first + frames.length)}px` } as React.CSSProperties}
        >
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
            {!view.past && (
              <label className="muted" style={{ display: 'inline-flex', gap: 4, alignItems: 'center' }}>
                <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow
              </label>
            )}
            {brushed && <TimeRangeChip connectionId={view.id} range={brushed} />}
            <span className="spacer" />
            <GoToFrame frames={frames} onGo={(index) => select(index, 'center')} />
            <span className="muted" data-testid="frame-count">
              {!filtered
                ? `${wholeCount} frames`
                : shown.counting
                  ? `filtering ${wholeCount} frames…`
                  : `${count.toLocaleString()} of ${wholeCount} frames`}
            </span>
            {frames.first === 0 && (
              <button
                className={`btn small ghost${searching ? ' active' : ''}`}
                onClick={() => setSearching(!searching)}
                aria-pressed={searching}
                title="Search every frame's payload and every log line of this session, however long"
              >
                Search…
              </button>
            )}
            {count > COPY_LIMIT ? (
              <button
                className="btn small ghost"
                title="Copy the frames listed"
                onClick={() =>
                  showToast(
                    `${count.toLocaleString()} frames are too many to copy at once (${COPY_LIMIT.toLocaleString()} at most): filter them, or export the session from History.`,
                    'error',
                  )
                }
              >
                Copy
              </button>
            ) : (
              <CopyButton
                label="Copy"
                className="btn small ghost"
                value={async () => framePayloads(view.id, await frames.read(await shown.allPositions()))}
              />
            )}
          </div>
          {searching && (
            <SessionSearchBar
              view={view}
              kind="frame"
              onPick={(position) => select(position, 'center')}
              onClose={() => setSearching(false)}
            />
          )}
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
            aria-busy={rows.some((r) => !rowFrame(shown, frames, r.index))}
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
              <div className="empty">
                {shown.error
                  ? `The frames could not be filtered: ${shown.error}`
                  : frames.length === 0
                    ? 'No frames yet.'
                    : shown.counting
                      ? 'Filtering every frame of this session…'
                      : 'No frame matches the filter.'}
              </div>
            ) : (
              <div style={{ height: totalSize, position: 'relative' }}>
                {rows.map((item) => {
                  const index = shown.positionAt(item.index)
                  const f = rowFrame(shown, frames, item.index)
                  if (index === undefined || !f)
                    return (
                      <div
                        key={`r${item.index}`}
                        className="row placeholder"
                        style={{ transform: `translateY(${item.start}px)` }}
                        aria-hidden="true"
                        data-testid="frame-placeholder"
                      >
                        <span className="muted">{index === undefined ? '' : frames.first + index + 1}</span>
                        <span className="bar" />
                        <span />
                        <span className="bar" />
                        <span className="bar" />
                      </div>
                    )
                  const paired = pair?.index === index
                  return (
                    <div
                      key={f.seq}
                      role="option"
                      aria-selected={selected === index}
                      className={`row${selected === index ? ' selected' : ''}${paired ? ' paired' : ''}${f.probe ? ' probe' : ''}`}
                      style={{ transform: `translateY(${item.start}px)` }}
                      onClick={() => (setSelected(index), setFollow(false))}
                      data-number={frames.first + index + 1}
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

/** The width of the number column: its longest number, and at least as wide as "#" and a few digits. */
function numberWidth(largest: number): number {
  return Math.max(40, String(largest).length * 7.5 + 4)
}

/** The frame row `rank` shows, when it is held. */
function rowFrame(shown: ShownFrames, frames: Frames, rank: number): FrameEvent | undefined {
  const index = shown.positionAt(rank)
  return index === undefined ? undefined : frames.at(index)
}

/** "Go to #": a frame by the number the list shows it under. */
function GoToFrame({ frames, onGo }: { frames: Frames; onGo: (index: number) => void }) {
  const [value, setValue] = useState('')
  const number = Number(value.replace(/[#,\s]/g, ''))
  const index = Number.isInteger(number) ? number - 1 - frames.first : -1
  const valid = value === '' || (index >= 0 && index < frames.length)
  return (
    <input
      className="go-to-frame"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && value && valid) onGo(index)
      }}
      placeholder="go to #"
      aria-label="Go to frame number"
      aria-invalid={!valid}
      title={
        valid
          ? 'A frame’s number, then Enter'
          : `Frames are numbered ${frames.first + 1} to ${(frames.first + frames.length).toLocaleString()}`
      }
      inputMode="numeric"
    />
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
