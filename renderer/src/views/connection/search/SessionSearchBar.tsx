import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { visibleName, visibleText, type SessionSearchHit } from '../../../../../shared/contract'
import { clock } from '../../../components/format'
import { useFixedRows } from '../../../components/useFixedRows'
import type { ConnectionView } from '../../../store/connectionView'
import { loadLogTexts } from '../../../store/logTexts'
import { clearSearch, MAX_HITS, searchSession, stopSearch, useSessionSearch, type SessionSearch } from '../../../store/sessionSearch'
import './sessionSearch.css'

const HIT_ROW = 22

/**
 * "Search this session": a text looked for in every event the connection had (its frames' payloads, its log
 * lines' texts), however long the session, the engine scanning it a moment at a time while a bar shows how far
 * it got; Stop keeps what was found. The hits of this view's kind (frames here, log lines in Log) are listed;
 * a click selects one (`onPick`, with its position).
 */
export function SessionSearchBar({
  view,
  kind,
  onPick,
  onClose,
}: {
  view: ConnectionView
  kind: 'frame' | 'log'
  onPick: (position: number) => void
  onClose: () => void
}) {
  const search = useSessionSearch(view.id)
  const [text, setText] = useState(search?.text ?? '')
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  const hits = search ? search.hits.filter((h) => h.kind === kind && h.position !== undefined) : []
  const share = search && search.total ? Math.min(1, search.next / search.total) : 0
  const start = () => void searchSession(view.id, text.trim())
  return (
    <div className="session-search" role="search" aria-label="Session search">
      <div className="session-search-bar">
        <input
          ref={input}
          type="search"
          value={text}
          placeholder={kind === 'frame' ? 'Search every frame’s payload in this session' : 'Search every log line in this session'}
          aria-label="Search this session"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') start()
            if (e.key !== 'Escape') return
            e.stopPropagation()
            if (search?.running) stopSearch(view.id)
            else onClose()
          }}
        />
        {search?.running ? (
          <button className="btn small" onClick={() => stopSearch(view.id)}>
            Stop
          </button>
        ) : (
          <button className="btn small primary" onClick={start} disabled={!text.trim()}>
            Search
          </button>
        )}
        <button
          className="btn small ghost"
          aria-label="Close the search"
          title="Close the search (its hits are forgotten)"
          onClick={() => {
            clearSearch(view.id)
            onClose()
          }}
        >
          ✕
        </button>
      </div>
      {search && (
        <>
          <div
            className={`search-progress${search.running ? ' running' : ''}`}
            role="progressbar"
            aria-label="Searched"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share * 100)}
          >
            <div style={{ width: `${share * 100}%` }} />
          </div>
          <div className="muted search-summary" data-testid="search-summary">
            {searchSummary(search, kind, share)}
          </div>
          {search.error && <div className="error-text search-summary">The search failed: {search.error}</div>}
          {hits.length > 0 && <HitList view={view} hits={hits} kind={kind} onPick={onPick} />}
        </>
      )}
    </div>
  )
}

function searchSummary(search: SessionSearch, kind: 'frame' | 'log', share: number): string {
  const count = (k: SessionSearchHit['kind']) => search.hits.reduce((n, h) => n + (h.kind === k ? 1 : 0), 0)
  const [frames, lines, others] = [count('frame'), count('log'), count('other')]
  const mine = kind === 'frame' ? plural(frames, 'frame') : plural(lines, 'log line')
  const rest = [
    kind === 'frame' ? lines && plural(lines, 'log line') : frames && plural(frames, 'frame'),
    others && plural(others, 'other event'),
  ]
    .filter(Boolean)
    .join(', ')
  const found = `${mine}${rest ? ` (and ${rest})` : ''}`
  const events = plural(search.total, 'event')
  if (search.capped) return `${found}: the first ${MAX_HITS.toLocaleString()} hits; a longer text finds fewer`
  if (search.running && search.total === 0) return 'Searching this session…'
  if (search.running) return `Searching… ${Math.floor(share * 100)}% of ${events} · ${found} so far`
  if (search.done) return `${found} in ${events}`
  return `Stopped at ${Math.floor(share * 100)}% of ${events} · ${found}`
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`
}

/** The hits, a row each (its number or time, and what it is once its row is held), virtualized. */
function HitList({
  view,
  hits,
  kind,
  onPick,
}: {
  view: ConnectionView
  hits: SessionSearchHit[]
  kind: 'frame' | 'log'
  onPick: (position: number) => void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const { rows, totalSize } = useFixedRows(scroller, hits.length, HIT_ROW, 4)
  const list = kind === 'frame' ? view.frames : view.logs
  useSyncExternalStore(list.subscribe, () => list.changes)
  const [picked, setPicked] = useState<number>()
  useEffect(() => {
    if (rows.length === 0) return
    const positions = rows.map((r) => hits[r.index].position!)
    for (const position of positions) if (!list.has(position)) void list.want(position, position + 1)
    if (kind === 'log') void loadLogTexts(view.logs, positions)
  })
  return (
    <div ref={scroller} className="search-hits" role="listbox" aria-label="Search hits">
      <div style={{ height: totalSize, position: 'relative' }}>
        {rows.map(({ index, start }) => {
          const hit = hits[index]
          const position = hit.position!
          return (
            <div
              key={hit.seq}
              role="option"
              aria-selected={picked === hit.seq}
              className={`search-hit${picked === hit.seq ? ' selected' : ''}`}
              style={{ transform: `translateY(${start}px)` }}
              onClick={() => {
                setPicked(hit.seq)
                onPick(position)
              }}
            >
              <span className="muted">{kind === 'frame' ? `#${(position + 1).toLocaleString()}` : clock(hit.ts)}</span>
              <span className="hit-what">{kind === 'frame' ? frameWhat(view, position) : logWhat(view, position)}</span>
            </div>
          )
        })}
      </div>
    </div>
  )
}

function frameWhat(view: ConnectionView, position: number): string {
  const frame = view.frames.at(position)
  if (!frame) return '…'
  return `${clock(frame.ts)}  ${frame.direction === 'out' ? '▲' : '▼'} ${visibleName(frame.method ?? frame.kind)}${frame.subject ? ` · ${visibleName(frame.subject)}` : ''}`
}

function logWhat(view: ConnectionView, position: number): string {
  const text = view.logs.textAt(position)
  return text === undefined ? '…' : visibleText(text)
}
