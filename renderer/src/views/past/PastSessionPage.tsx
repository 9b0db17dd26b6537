import { useEffect, useState } from 'react'
import { visibleName } from '../../../../shared/contract'
import { AgentText, Name } from '../../components/Name'
import { timeOfDay } from '../../components/format'
import { openTab, showTargetPage } from '../../store/actions'
import { openPastSession, pastViewId } from '../../store/historyActions'
import { TABS, useStore, type Tab } from '../../store/store'
import { ConnectionTabs } from '../connection/ConnectionTabs'
import { DeleteSessionDialog, ExportSessionDialog } from '../connection/history/SessionDialogs'
import { endOf, howItEnded, howLong, size, whenStarted, whose } from '../connection/history/sessionWords'
import '../connection/connection.css'
import '../connection/history/history.css'

/** The views a past session has: all that derive from its events (none that would send anything). */
const PAST_TABS = TABS.filter((t) => t.id !== 'calls' && t.id !== 'auth' && t.id !== 'history')

/**
 * A kept session, read-only (History → Open): its handshake, discovery, catalog, conversation, keepalive, frames
 * and log as they were, read from disk as `session:<id>` (a long session's frames and lines by position, as a
 * live one's). Its header says it is past, how it ended and how much it holds; it can be exported or deleted,
 * and nothing in it sends anything.
 */
export function PastSessionPage({ sessionId }: { sessionId: string }) {
  const viewId = pastViewId(sessionId)
  const past = useStore((s) => s.pastSessions[viewId])
  const view = useStore((s) => s.connections[viewId])
  const link = useStore((s) => s.link)
  const tab = useStore((s) => s.tab)
  const [exporting, setExporting] = useState(false)
  const [deleting, setDeleting] = useState(false)
  // Opened again after a reload of the page, once the engine is reachable.
  useEffect(() => {
    if (!past && link === 'open') void openPastSession(sessionId)
  }, [past, link, sessionId])
  const back = () => {
    showTargetPage()
    openTab('history')
  }
  if (!past)
    return (
      <section className="main" aria-label="Past session">
        <div className="panel">
          <div className="empty muted">Opening the session…</div>
        </div>
      </section>
    )
  const { summary } = past
  const ended = howItEnded(summary)
  const events = `${summary.events.toLocaleString()} event${summary.events === 1 ? '' : 's'}`
  const state = summary.running
    ? `running · as of ${timeOfDay(summary.lastEventAt)}`
    : `${ended.text === 'closed' ? 'ended' : ended.text} ${timeOfDay(endOf(summary))}`
  const shown: Tab = PAST_TABS.some((t) => t.id === tab) ? tab : 'frames'
  return (
    <section className="main" aria-label={`Past session of ${visibleName(summary.targetName)}`}>
      <header className="page-head">
        <div style={{ minWidth: 0 }}>
          <div className="page-title" title={visibleName(summary.targetName)}>
            <Name value={summary.targetName} />
          </div>
          <div className="page-sub">
            <AgentText
              value={`${whose(summary)} · started ${whenStarted(summary.startedAt)} · lasted ${howLong(endOf(summary) - summary.startedAt)} · ${size(summary.bytes)} on disk`}
            />
          </div>
        </div>
        <span
          className={`badge past-badge ${ended.tone}`}
          data-testid="past-session"
          title={summary.reason ? visibleName(summary.reason) : undefined}
        >
          Past session · {state} · {events}
        </span>
        <div className="page-actions">
          {/* A tapped host's session is no target's: it is found under Watched sessions, not in a target's History. */}
          {summary.host !== 'tap' && (
            <button className="btn" onClick={back} title="Back to the target's history">
              ← History
            </button>
          )}
          <button className="btn" onClick={() => setExporting(true)}>
            Export…
          </button>
          <button
            className="btn danger"
            onClick={() => setDeleting(true)}
            disabled={summary.running}
            title={summary.running ? 'It is running: disconnect it first' : 'Delete it from disk'}
          >
            Delete…
          </button>
        </div>
      </header>
      <div className="past-note" role="note">
        Read-only: what was kept of this session on disk. Nothing here sends anything to the{' '}
        {summary.protocol === 'a2a' ? 'agent' : 'server'}.
      </div>
      {past.error ? (
        <div className="panel">
          <div className="empty">
            <h2>The session could not be read</h2>
            <p className="error-text">{past.error}</p>
          </div>
        </div>
      ) : !past.ready || !view ? (
        <div className="panel">
          <div className="empty muted">Opening the session ({events})…</div>
        </div>
      ) : (
        <ConnectionTabs view={view} tabs={PAST_TABS} tab={shown} />
      )}
      {exporting && <ExportSessionDialog session={summary} onClose={() => setExporting(false)} />}
      {deleting && <DeleteSessionDialog session={summary} onClose={() => setDeleting(false)} />}
    </section>
  )
}
