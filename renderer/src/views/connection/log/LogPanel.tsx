import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { LOG_LEVELS, visibleName, visibleText, type LogEvent, type LogLevel } from '../../../../../shared/contract'
import { sendsNothing, type ConnectionView } from '../../../store/connectionView'
import { setLogLevel } from '../../../store/actions'
import { FrameLink } from '../../../components/FrameLink'
import { AgentText } from '../../../components/Name'
import { CopyButton } from '../../../components/CopyButton'
import { useFixedRows } from '../../../components/useFixedRows'
import { loadLogTexts, textsOf } from '../../../store/logTexts'
import { showToast, useStore } from '../../../store/store'
import { hasSessionSearch } from '../../../store/sessionSearch'
import { clock } from '../../../components/format'
import { SessionSearchBar } from '../search/SessionSearchBar'
import { TimeRangeChip } from '../timeline/TimeRangeChip'
import { levelOf, useShownLines } from './useShownLines'
import './log.css'

const ROW = 22
/** Lines Copy all takes at once: more is an export away. */
const COPY_LIMIT = 50_000

/**
 * The connection's log, newest at the bottom: the server's own messages (MCP `notifications/message`,
 * with their level and logger), its stderr, and the engine's notes — protocol oddities flagged with why.
 * Filter by level (at least…) and text; search the whole session; ask the server for another level when it
 * offers `logging`. A long session's lines are fetched by position as they are shown, their texts with them.
 */
export function LogPanel({ view }: { view: ConnectionView }) {
  const [minimum, setMinimum] = useState<LogLevel>('debug')
  const [text, setText] = useState('')
  const [selected, setSelected] = useState<number>()
  const [follow, setFollow] = useState(true)
  const [searching, setSearching] = useState(() => hasSessionSearch(view.id))
  const scroller = useRef<HTMLDivElement>(null)
  const needle = text.trim().toLowerCase()
  const logs = view.logs
  useSyncExternalStore(logs.subscribe, () => logs.changes)
  const brushed = useStore((s) => s.timeRanges[view.id])
  const shown = useShownLines(logs, minimum, needle, brushed)
  const count = shown.count
  const { rows, totalSize, scrollToIndex } = useFixedRows(scroller, count, ROW)
  useEffect(() => {
    if (follow && count) scrollToIndex(count - 1, 'end')
  }, [count, follow, scrollToIndex])
  useEffect(() => {
    if (rows.length === 0) return
    const positions = rows.map((row) => shown.positionAt(row.index))
    void logs.want(positions[0], positions[positions.length - 1] + 1)
    if (positions.some((i) => logs.has(i) && logs.textAt(i) === undefined)) void loadLogTexts(logs, positions).catch(() => {})
  })
  const filtered = count !== logs.length || shown.overLoaded
  const pick = (position: number) => {
    setSelected(position)
    setFollow(false)
    void logs.want(position, position + 1)
    const at = shown.rankOf(position)
    if (at !== -1) scrollToIndex(at, 'center')
  }

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
          placeholder={logs.complete ? 'filter text or logger' : 'filter the lines loaded'}
          aria-label="Filter log"
        />
        <span
          className="muted"
          data-testid="log-count"
          title={shown.overLoaded ? `${logs.length.toLocaleString()} lines in the session` : undefined}
        >
          {shown.searching
            ? `searching ${logs.heldCount.toLocaleString()} lines…`
            : shown.overLoaded
              ? `${count.toLocaleString()} of ${logs.heldCount.toLocaleString()} loaded lines`
              : filtered
                ? `${count.toLocaleString()} of ${logs.length.toLocaleString()} lines`
                : `${count.toLocaleString()} lines`}
        </span>
        {brushed && <TimeRangeChip connectionId={view.id} range={brushed} />}
        <span className="spacer" />
        {!sendsNothing(view) && <ServerLevel view={view} />}
        <button
          className={`btn small ghost${searching ? ' active' : ''}`}
          onClick={() => setSearching(!searching)}
          aria-pressed={searching}
          title="Search every log line and frame of this session, however long"
        >
          Search…
        </button>
        {logs.length > COPY_LIMIT ? (
          <button
            className="btn small"
            onClick={() =>
              showToast(
                `${logs.length.toLocaleString()} lines are too many to copy at once (${COPY_LIMIT.toLocaleString()} at most): export the session from History.`,
                'error',
              )
            }
          >
            Copy all
          </button>
        ) : (
          <CopyButton
            label="Copy all"
            value={async () => {
              const positions = Array.from({ length: logs.length }, (_, i) => i)
              const lines = await logs.read(positions)
              const texts = await textsOf(logs, positions, lines)
              return lines.map((l, i) => lineText(l, texts[i])).join('\n')
            }}
          />
        )}
      </div>
      {searching && <SessionSearchBar view={view} kind="log" onPick={pick} onClose={() => setSearching(false)} />}
      {shown.overLoaded && needle && (
        <div className="log-note muted">
          A long session: the filter reads the {logs.heldCount.toLocaleString()} lines loaded (the latest, and those shown). To find a text
          in every line, search this session.{' '}
          {!searching && (
            <button className="btn ghost small link" onClick={() => setSearching(true)}>
              Search this session
            </button>
          )}
        </div>
      )}
      <div
        ref={scroller}
        className="rows"
        data-testid="log"
        onWheel={() => setFollow(false)}
        onScroll={(e) => {
          // Back at the bottom: the newest lines are followed again.
          const el = e.currentTarget
          if (!follow && el.scrollTop + el.clientHeight >= el.scrollHeight - ROW) setFollow(true)
        }}
      >
        {count === 0 ? (
          <div className="empty">
            {logs.length
              ? 'No line at this level or with this text.'
              : "Nothing logged yet. The server's log messages (notifications/message) and a stdio server's stderr appear here, with the engine's notes."}
          </div>
        ) : (
          <div style={{ height: totalSize, position: 'relative' }}>
            {rows.map((item) => {
              const at = shown.positionAt(item.index)
              const line = logs.at(at)
              return line ? (
                <LogRow
                  key={line.seq}
                  line={line}
                  text={logs.textAt(at)}
                  top={item.start}
                  connectionId={view.id}
                  selected={selected === at}
                />
              ) : (
                <div
                  key={`r${item.index}`}
                  className="log-row placeholder"
                  style={{ transform: `translateY(${item.start}px)` }}
                  aria-hidden="true"
                  data-testid="log-placeholder"
                >
                  <span className="bar" />
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}

/** A line as Copy all writes it. */
function lineText(line: LogEvent, text: string): string {
  const oddity = line.oddity ? ` (${line.about === 'host' ? 'the host' : 'oddity'})` : ''
  return `${clock(line.ts)} ${levelOf(line)} [${line.server?.logger ?? line.source}]${oddity} ${text}`
}

function LogRow({
  line,
  text,
  top,
  connectionId,
  selected,
}: {
  line: LogEvent
  /** Its text, once fetched (a long session's lines come without). */
  text: string | undefined
  top: number
  connectionId: string
  selected: boolean
}) {
  const level = levelOf(line)
  const frameSeq = line.server?.frameSeq
  return (
    <div
      className={`log-row lvl-${LOG_LEVELS.includes(level as LogLevel) ? level : 'info'}${line.oddity ? ' oddity' : ''}${selected ? ' selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      title={text !== undefined ? visibleText(text) : undefined}
      data-source={line.source}
      data-level={level}
      aria-current={selected || undefined}
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
        <span
          className="oddity-mark"
          title={
            line.about === 'host'
              ? 'The host broke a rule of the protocol (observed through parallax tap)'
              : 'The server broke a rule of the protocol'
          }
        >
          {line.about === 'host' ? 'the host' : 'oddity'}
        </span>
      )}
      {text !== undefined ? <AgentText value={text} className="text" /> : <span className="text muted">…</span>}
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
