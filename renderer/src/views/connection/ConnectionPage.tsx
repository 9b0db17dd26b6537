import { useEffect, useState } from 'react'
import { describeSpec, visibleName, visibleText, type SavedTarget } from '../../../../shared/contract'
import { AgentText, Name } from '../../components/Name'
import { elapsed, timeOfDay } from '../../components/format'
import {
  closeConnections,
  connect,
  disconnect,
  dismissRestartNotice,
  openTab,
  probe,
  reconnect,
  refresh,
  showFrame,
  startEditing,
  startRecording,
  stopRecording,
} from '../../store/actions'
import { purposeLabel } from '../../components/connectionLabel'
import { connectionNumber, isSession, statusTone, type ConnectionView } from '../../store/connectionView'
import { useSelectedConnection, useStore } from '../../store/store'
import { targetTabs } from '../../store/targetTabs'
import { EditedNotice } from './EditedNotice'
import { ServerRequestPanel } from './serverRequests/ServerRequestPanel'
import { ProfilePicker } from './serverRequests/ProfilePicker'
import { MoreAccessPrompt } from './auth/MoreAccessPrompt'
import { AppViewDock } from './apps/AppViewDock'
import { signIn } from '../../store/authActions'
import { ConnectionTabs } from './ConnectionTabs'
import { HistoryPanel } from './history/HistoryPanel'
import './connection.css'

/**
 * A target's page: the user's own session with it (never a connection Compare or Replay opened for
 * themselves), its state and actions, then one tab per aspect of it.
 */
export function ConnectionPage({ target }: { target: SavedTarget }) {
  const view = useSelectedConnection()
  const tab = useStore((s) => s.tab)
  const live = view && !['closed', 'failed'].includes(view.state)
  const tone = statusTone(view)
  // The client profile to connect under this time; the target's own (or the default) unless the user picks another.
  const [profile, setProfile] = useState<string>()
  const tabs = targetTabs(target)
  const shownTab = tabs.some((t) => t.id === tab) ? tab : 'handshake'
  return (
    <section className="main" aria-label={visibleName(target.name)}>
      <header className="page-head">
        <div style={{ minWidth: 0 }}>
          <div className="page-title" title={visibleName(target.name)}>
            <Name value={target.name} />
          </div>
          <div className="page-sub" title={visibleText(describeSpec(target.spec))}>
            <AgentText value={target.origin === 'demo' ? `built-in demo · ${target.description}` : describeSpec(target.spec)} />
          </div>
        </div>
        {view && (
          <span
            className={`badge ${tone}`}
            data-testid="connection-state"
            title={`Your session: connection ${connectionNumber(view.id)}, opened ${timeOfDay(view.owner.startedAt)}${view.pid ? `, server process ${view.pid}` : ''}`}
          >
            <span className={`dot ${tone}`} />
            {stateLabel(view)}
          </span>
        )}
        <div className="page-actions">
          {target.origin !== 'demo' && (
            <button
              className="btn"
              onClick={() => startEditing(target)}
              title={live ? 'Edit (e): the connection keeps what it was opened with until it reconnects' : 'Edit (e)'}
            >
              Edit
            </button>
          )}
          {view && live && <RecordButton view={view} />}
          {live ? (
            <>
              <button
                className="btn"
                onClick={() => probe(view.id)}
                disabled={view.state !== 'connected' && view.state !== 'degraded'}
                title="Probe now (p)"
              >
                Probe now
              </button>
              {view.protocol === 'mcp' && (
                <button
                  className="btn"
                  onClick={() => refresh(view.id)}
                  disabled={view.state !== 'connected'}
                  title="Run discovery again (r)"
                >
                  Refresh
                </button>
              )}
              <button className="btn" onClick={() => void reconnect(view.id)} title="Close this connection and open a new one">
                Reconnect
              </button>
              <button className="btn" onClick={() => disconnect(view.id)} title="Disconnect (c)">
                Disconnect
              </button>
            </>
          ) : (
            <>
              {target.spec.kind !== 'a2a' && <ProfilePicker target={target} value={profile} onChange={setProfile} />}
              <button className="btn primary" onClick={() => connect(target, profile)} title="Connect (c)">
                {view ? 'Reconnect' : 'Connect'}
              </button>
            </>
          )}
        </div>
      </header>
      {view?.recording?.error && <div className="reason bad">{view.recording.error}</div>}
      {view && <EditedNotice target={target} view={view} />}
      {view && live && <RestartNotice view={view} />}
      <OtherConnections targetId={target.id} />
      <MoreAccessPrompt target={target} />
      {view && <ServerRequestPanel view={view} />}
      {view && <AppViewDock view={view} />}
      {view?.reason && (view.state === 'failed' || view.state === 'reconnecting' || view.state === 'degraded') && (
        <div className={`reason ${view.state === 'failed' ? 'bad' : ''}`}>
          {view.reason}
          {view.cause?.auth && view.state === 'failed' && (
            <span className="reason-actions">
              <button
                className="btn primary small"
                onClick={() => {
                  openTab('auth')
                  void signIn(target.id)
                }}
              >
                Sign in
              </button>
              <button className="btn small" onClick={() => openTab('auth')}>
                Show the steps
              </button>
            </span>
          )}
        </div>
      )}
      {view ? (
        <ConnectionTabs view={view} tabs={tabs} tab={shownTab} target={target} />
      ) : (
        <>
          <div className="panel not-connected">
            <div className="empty">
              <h2>Not connected</h2>
              <p>
                {target.description ??
                  'Connect to see the handshake, what discovery called or skipped and why, the catalog, keepalive probes and every frame on the wire.'}
              </p>
              <div className="actions">
                <button className="btn primary" onClick={() => connect(target, profile)}>
                  Connect
                </button>
              </div>
            </div>
          </div>
          <HistoryPanel target={target} />
        </>
      )}
    </section>
  )
}

/** Record from now on, or, while recording, how long and how many events so far, and Stop. */
function RecordButton({ view }: { view: ConnectionView }) {
  const recording = view.recording && !view.recording.error ? view.recording : undefined
  return recording ? (
    <>
      <span className="recording-status" data-testid="recording-status" title={`Recording to "${visibleName(recording.name)}"`}>
        <span className="rec-dot" /> <RecordingClock since={recording.startedAt} /> · {recording.events.toLocaleString()} event
        {recording.events === 1 ? '' : 's'}
      </span>
      <button
        className="btn recording-on"
        onClick={() => stopRecording(view.id)}
        title={`Stop recording to "${visibleName(recording.name)}"`}
      >
        ■ Stop recording
      </button>
    </>
  ) : (
    <button
      className="btn"
      onClick={() => startRecording(view.id)}
      title={
        view.recording?.error ?? 'Record this connection from now on into the library (its handshake and catalog come first, as context)'
      }
    >
      ● Record
    </button>
  )
}

/** Time since `since`, ticking every second. */
function RecordingClock({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return <span className="mono">{elapsed(now - since)}</span>
}

/**
 * The server went away and keepalive brought it back: over stdio a new process, so what it kept is gone.
 * Said until the user dismisses it; a later restart is said again.
 */
function RestartNotice({ view }: { view: ConnectionView }) {
  const dismissed = useStore((s) => s.dismissedRestarts[view.id])
  if (!view.reconnected || dismissed === view.reconnected.at) return null
  const { at, cause } = view.reconnected
  const restarted = view.transport === 'stdio'
  return (
    <div className="reason restart-notice" data-testid="restart-notice">
      <span>
        {restarted ? 'restarted' : 'reconnected'} {timeOfDay(at)} — <AgentText value={cause} />.{' '}
        <span className="muted">
          {restarted ? 'A new server process' : 'A new connection'}: state the server kept (sessions, subscriptions, anything in memory) may
          be gone.
        </span>
      </span>
      <button className="btn ghost small" onClick={() => dismissRestartNotice(view.id, at)} aria-label="Dismiss" title="Dismiss">
        ✕
      </button>
    </div>
  )
}

/**
 * Connections to this target that are not the user's session and are still open (a replay's the user
 * kept): who opened them and when, their frames, and a way to close them.
 */
function OtherConnections({ targetId }: { targetId: string }) {
  const connections = useStore((s) => s.connections)
  const others = Object.values(connections).filter(
    (v) => v.targetId === targetId && !isSession(v) && v.state !== 'closed' && v.state !== 'failed',
  )
  if (others.length === 0) return null
  return (
    <div className="other-connections" data-testid="other-connections">
      <span className="muted">Also open to this target, not your session:</span>
      {others.map((v) => (
        <span key={v.id} className="other-connection">
          {purposeLabel(v.owner)} · {timeOfDay(v.owner.startedAt)} <span className="muted">{connectionNumber(v.id)}</span>
          <button className="btn ghost small" onClick={() => showFrame(v.id)}>
            Frames
          </button>
        </span>
      ))}
      <button className="btn small" onClick={() => closeConnections(others.map((v) => v.id))}>
        Close {others.length === 1 ? 'it' : `all ${others.length}`}
      </button>
    </div>
  )
}

function stateLabel(view: ConnectionView): string {
  if (view.state === 'reconnecting') return `reconnecting · attempt ${view.attempt} of ${view.maxAttempts}`
  if (view.state === 'connected') return `connected · ${view.health}`
  return view.state
}
