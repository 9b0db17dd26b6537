import { useEffect, useState } from 'react'
import type { ListedSession, SavedTarget } from '../../../../../shared/contract'
import { visibleText } from '../../../../../shared/contract'
import { listSessions, openHistorySettings, openPastSession } from '../../../store/historyActions'
import { useStore } from '../../../store/store'
import { DeleteSessionDialog, ExportSessionDialog } from './SessionDialogs'
import { endOf, howItEnded, howLong, size, whenStarted, whose } from './sessionWords'
import './history.css'

/** Whose sessions a History lists: a saved target's, or those of a tap's name (`tap:<name>`). */
export type HistoryOf = Pick<SavedTarget, 'id' | 'name'>

/** How often the list is read again while a session in it runs (its counts grow). */
const WHILE_RUNNING_MS = 3000

/**
 * A target's History: every session kept on disk for it, newest first — when, how long, how many events, how
 * it ended, its size, a running one marked — each to open read-only, export into the recordings, or delete.
 */
export function HistoryPanel({ target }: { target: HistoryOf }) {
  const [sessions, setSessions] = useState<ListedSession[]>()
  const [exporting, setExporting] = useState<ListedSession>()
  const [deleting, setDeleting] = useState<ListedSession>()
  const api = useStore((s) => s.api)
  // A session of this target that starts or ends changes the list.
  const states = useStore((s) =>
    Object.values(s.connections)
      .filter((v) => v.targetId === target.id && !v.past)
      .map((v) => `${v.id}:${v.state === 'closed' || v.state === 'failed' ? 'ended' : 'on'}`)
      .join(' '),
  )
  const reload = async () => setSessions((await listSessions(target.id)) ?? [])
  useEffect(() => {
    if (api) void reload()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the target, the engine, its sessions' states
  }, [api, target.id, states])
  const running = sessions?.some((s) => s.running)
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => void reload(), WHILE_RUNNING_MS)
    return () => clearInterval(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- while one runs
  }, [running, target.id])

  return (
    <div className="panel history" data-testid="history">
      <div className="history-head">
        <div>
          <h3>History</h3>
          <span className="muted">Every session with {visibleText(target.name)}, kept on disk as it happened.</span>
        </div>
        <span className="spacer" />
        <button className="btn small" onClick={openHistorySettings} title="How much disk the session history may use">
          History settings…
        </button>
      </div>
      {sessions === undefined ? (
        <div className="empty muted">Reading the sessions kept…</div>
      ) : sessions.length === 0 ? (
        <div className="empty history-empty">
          <h2>No sessions kept yet</h2>
          <p>
            Every connection to this target is kept here as it happens, every frame and log line of it. Connect, and its session shows in
            this list: open it read-only at any time, even after Parallax restarts, export it to Replay, or delete it.
          </p>
        </div>
      ) : (
        <table className="grid history-table" aria-label="Kept sessions">
          <thead>
            <tr>
              <th>Started</th>
              <th>Lasted</th>
              <th className="num">Events</th>
              <th>Ended</th>
              <th className="num">Size</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => {
              const ended = howItEnded(session)
              return (
                <tr key={session.id} data-session={session.id} className={session.running ? 'running' : undefined}>
                  <td>
                    <button className="linkish" onClick={() => void openPastSession(session.id, session)} title="Open it read-only">
                      {whenStarted(session.startedAt)}
                    </button>
                    {session.owner && session.owner.purpose !== 'session' && <span className="purpose">{whose(session)}</span>}
                  </td>
                  <td>{howLong(endOf(session) - session.startedAt)}</td>
                  <td className="num">{session.events.toLocaleString()}</td>
                  <td>
                    <span
                      className={`ended ${ended.tone}`}
                      title={session.reason ? visibleText(session.reason) : session.running ? 'still being written' : undefined}
                    >
                      {session.running && <span className="dot ok" />}
                      {ended.text}
                    </span>
                  </td>
                  <td className="num">{size(session.bytes)}</td>
                  <td className="history-actions">
                    <button className="btn small" onClick={() => void openPastSession(session.id, session)}>
                      Open
                    </button>
                    <button className="btn small" onClick={() => setExporting(session)}>
                      Export…
                    </button>
                    <button
                      className="btn small ghost danger"
                      disabled={session.running}
                      title={session.running ? 'It is running: disconnect it first' : 'Delete it from disk'}
                      onClick={() => setDeleting(session)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      {exporting && <ExportSessionDialog session={exporting} onClose={() => setExporting(undefined)} />}
      {deleting && (
        <DeleteSessionDialog
          session={deleting}
          onClose={(deleted) => {
            setDeleting(undefined)
            if (deleted) void reload()
          }}
        />
      )}
    </div>
  )
}
