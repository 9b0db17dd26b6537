import { useEffect, useReducer, useRef, useState } from 'react'
import { LOG_LEVELS, visibleName, visibleText, type LogEvent, type LogLevel, type LogShape } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { setLogLevel } from '../../../store/actions'
import { FrameLink } from '../../../components/FrameLink'
import { AgentText } from '../../../components/Name'
import { CopyButton } from '../../../components/CopyButton'
import { useFixedRows } from '../../../components/useFixedRows'
import { everyLine, loadLogTexts } from '../../../store/logTexts'
import type { LogList } from '../../../store/rowLists'
import { clock } from '../../../components/format'
import { useIncrementalFilter } from '../frames/useIncrementalFilter'
import './log.css'

const ROW = 22

/**
 * The connection's log, newest at the bottom: the server's own messages (MCP `notifications/message`,
 * with their level and logger), its stderr, and the engine's notes — protocol oddities flagged with why.
 * Filter by level (at least…) and text; ask the server for another level when it offers `logging`.
 */
export function LogPanel({ view }: { view: ConnectionView }) {
  const [minimum, setMinimum] = useState<LogLevel>('debug')
  const [text, setText] = useState('')
  const scroller = useRef<HTMLDivElement>(null)
  const needle = text.trim().toLowerCase()
  const floor = LOG_LEVELS.indexOf(minimum)
  const logs = view.logs
  // A backlog's lines come without their text: fetched for the lines shown, and all of them to search.
  const [, textsCame] = useReducer((n: number) => n + 1, 0)
  const searchable = !needle || logs.textsComplete
  const indices = useIncrementalFilter(
    logs,
    `${minimum}|${needle}|${searchable}`,
    floor === 0 && !needle
      ? undefined
      : (i) => {
          // Read as rows: filtering a long backlog makes no log events.
          const shape = logs.shapeAt(i)
          return (
            rank(shape) >= floor &&
            (!needle ||
              (logs.textAt(i) ?? '').toLowerCase().includes(needle) ||
              (shape.server?.logger ?? shape.source).toLowerCase().includes(needle))
          )
        },
  )
  const count = indices.length
  const { rows, totalSize, scrollToIndex } = useFixedRows(scroller, count, ROW)
  useEffect(() => {
    if (count) scrollToIndex(count - 1, 'end')
  }, [count, scrollToIndex])
  useEffect(() => {
    const shown = rows.map((row) => indices[row.index])
    if (shown.some((i) => logs.textAt(i) === undefined)) fetchTexts(view.id, logs, shown, textsCame)
  })
  useEffect(() => {
    if (!searchable) fetchTexts(view.id, logs, everyLine(logs), textsCame)
  }, [searchable, view.id, logs, logs.length])
  const filtered = count !== logs.length

  return (
    <div className="panel fill" style={{ flexDirection: 'column' }}>
      <div className="toolbar log-toolbar">
        <label className="muted" htmlFor="log-minimum">
          Show
        </label>
        <select id="log-minimum" value={minimum} onChange={(e) => setMinimum(e.target.value as LogLevel)} aria-label="Lowest level shown">
          {LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level === 'debug' ? 'every level' : `${level} and above`}
            </option>
          ))}
        </select>
        <input
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="filter text or logger"
          aria-label="Filter log"
        />
        <span className="muted" data-testid="log-count">
          {!searchable
            ? `searching ${logs.length.toLocaleString()} lines…`
            : filtered
              ? `${count.toLocaleString()} of ${logs.length.toLocaleString()} lines`
              : `${count.toLocaleString()} lines`}
        </span>
        <span className="spacer" />
        <ServerLevel view={view} />
        <CopyButton
          label="Copy all"
          value={async () => {
            await loadLogTexts(view.id, logs, everyLine(logs))
            return logs
              .all()
              .map((l) => `${clock(l.ts)} ${levelOf(l)} [${l.server?.logger ?? l.source}]${l.oddity ? ' (oddity)' : ''} ${l.text}`)
              .join('\n')
          }}
        />
      </div>
      <div ref={scroller} className="rows" data-testid="log">
        {count === 0 ? (
          <div className="empty">
            {logs.length
              ? 'No line at this level or with this text.'
              : "Nothing logged yet. The server's log messages (notifications/message) and a stdio server's stderr appear here, with the engine's notes."}
          </div>
        ) : (
          <div style={{ height: totalSize, position: 'relative' }}>
            {rows.map((item) => {
              const at = indices[item.index]
              const line = logs.at(at)
              return <LogRow key={line.seq} line={line} fetched={logs.textAt(at) !== undefined} top={item.start} connectionId={view.id} />
            })}
          </div>
        )}
      </div>
    </div>
  )
}

/** Fetches the texts missing at `positions`, and calls `came` when any did (a failure leaves them "…"). */
function fetchTexts(connectionId: string, logs: LogList, positions: Iterable<number>, came: () => void): void {
  void loadLogTexts(connectionId, logs, positions).then(
    (fetched) => fetched && came(),
    () => {},
  )
}

function LogRow({ line, fetched, top, connectionId }: { line: LogEvent; fetched: boolean; top: number; connectionId: string }) {
  const level = levelOf(line)
  const frameSeq = line.server?.frameSeq
  return (
    <div
      className={`log-row lvl-${LOG_LEVELS.includes(level as LogLevel) ? level : 'info'}${line.oddity ? ' oddity' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      title={fetched ? visibleText(line.text) : undefined}
      data-source={line.source}
      data-level={level}
    >
      <span className="muted">{clock(line.ts)}</span>
      <span
        className="lvl"
        title={line.server ? `the server's level: ${visibleName(line.server.level)}` : `Parallax's level: ${line.level}`}
      >
        {visibleName(level)}
      </span>
      <span className="src" title={line.server?.logger ? `logger ${visibleName(line.server.logger)} (from the server)` : sourceTitle(line)}>
        {visibleName(line.server?.logger ?? line.source)}
      </span>
      {line.oddity && (
        <span className="oddity-mark" title="The server broke a rule of the protocol">
          oddity
        </span>
      )}
      {fetched ? <AgentText value={line.text} className="text" /> : <span className="text muted">…</span>}
      {frameSeq !== undefined && (
        <FrameLink connectionId={connectionId} seq={frameSeq} className="btn ghost small frame-link" title="The frame it came in" />
      )}
    </div>
  )
}

/** What the server is asked to send (`logging/setLevel`): offered only when it advertised `logging`. */
function ServerLevel({ view }: { view: ConnectionView }) {
  const h = view.handshake
  if (h?.protocol !== 'mcp' || !h.serverCapabilities.logging) return null
  const live = view.state === 'connected' || view.state === 'degraded'
  return (
    <span className="server-level">
      <label htmlFor="server-log-level" className="muted" title="logging/setLevel: the server sends messages at this level and above">
        Server sends
      </label>
      <select
        id="server-log-level"
        value={view.logLevel ?? ''}
        disabled={!live}
        onChange={(e) => void setLogLevel(view.id, e.target.value as LogLevel)}
        aria-label="Level the server sends (logging/setLevel)"
      >
        {view.logLevel === undefined && <option value="">its default level</option>}
        {LOG_LEVELS.map((level) => (
          <option key={level} value={level}>
            {level} and above
          </option>
        ))}
      </select>
    </span>
  )
}

/** A line's level on the spec's scale: a server's as it sent it, Parallax's own mapped onto it. */
function levelOf(line: LogShape): string {
  if (line.server) return line.server.level
  return line.level === 'warn' ? 'warning' : line.level
}

/** Where a line stands for filtering (a server level outside the spec's counts as info). */
function rank(line: LogShape): number {
  const at = LOG_LEVELS.indexOf(levelOf(line) as LogLevel)
  return at === -1 ? 1 : at
}

function sourceTitle(line: LogEvent): string {
  switch (line.source) {
    case 'stderr':
      return "the server process's stderr"
    case 'transport':
      return 'the transport (the SDK and the wire)'
    case 'server':
      return 'the server (notifications/message)'
    default:
      return "Parallax's engine"
  }
}
