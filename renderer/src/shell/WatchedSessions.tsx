import { useEffect, useState } from 'react'
import { visibleName, type ListedSession } from '../../../shared/contract'
import { Name } from '../components/Name'
import { hostLabel, tappedWhat } from '../components/connectionLabel'
import { isObserved, statusTone, type ConnectionView } from '../store/connectionView'
import { useStore } from '../store/store'
import { listSessions, openPastSession } from '../store/historyActions'
import { openObserved } from '../store/tapActions'
import { whenStarted } from '../views/connection/history/sessionWords'

/** Past watched sessions the sidebar offers (the newest), when none is watched now. */
const PAST_SHOWN = 5

/**
 * The sessions hosts run through `parallax tap` that this app watches (live, then ended), newest first; when
 * there are none, how to make one, and the newest kept from before (each opens read-only).
 */
export function WatchedSessions() {
  const ids = useStore((s) =>
    Object.values(s.connections)
      .filter((v) => isObserved(v) && !v.past)
      .sort((a, b) => b.openedAt - a.openedAt)
      .map((v) => v.id)
      .join('\n'),
  )
  return (
    <>
      <div className="group-title">Watched sessions</div>
      {ids === '' ? (
        <>
          <div className="target-sub watch-hint" data-testid="watch-hint">
            Watch a host&apos;s session: where the host&apos;s config runs a server, run it as <code>parallax tap -- COMMAND</code>, or let{' '}
            <code>parallax tap install --host NAME</code> do it. Each session shows here live.
          </div>
          <PastWatched />
        </>
      ) : (
        ids.split('\n').map((id) => <WatchedRow key={id} connectionId={id} />)
      )}
    </>
  )
}

function WatchedRow({ connectionId }: { connectionId: string }) {
  const view = useStore((s) => s.connections[connectionId]) as ConnectionView
  const selected = useStore((s) => s.mainView.kind === 'observed' && s.mainView.connectionId === connectionId)
  const tone = statusTone(view)
  const observed = view.owner.observed ?? { via: 'stdio' }
  const host = hostLabel(observed)
  const sub = `${view.state === 'closed' || view.state === 'failed' ? 'ended' : 'live'} · ${host ?? 'host not named yet'}`
  const hostFindings = view.findings.filter((f) => f.about === 'host').length
  return (
    <button
      className={`target${selected ? ' selected' : ''}`}
      onClick={() => openObserved(connectionId)}
      data-observed={connectionId}
      title={`${visibleName(view.targetName)} · observed through parallax tap · ${tappedWhat(observed)}`}
    >
      <span className={`dot ${tone}`} title={`${view.state}, ${view.health}`} />
      <span style={{ minWidth: 0 }}>
        <div className="target-name">
          <Name value={view.targetName} /> <span className="observed-mark">tap</span>
        </div>
        <div className="target-sub">{sub}</div>
      </span>
      {hostFindings > 0 ? (
        <span className="count warn" title="findings about the host">
          {hostFindings}
        </span>
      ) : (
        <span />
      )}
    </button>
  )
}

/** The newest sessions taps kept (the tap's own, in the sessions folder), each opened read-only from History. */
function PastWatched() {
  const api = useStore((s) => s.api)
  const [sessions, setSessions] = useState<ListedSession[]>([])
  useEffect(() => {
    if (!api) return
    void listSessions(undefined).then((all) => setSessions((all ?? []).filter((s) => s.host === 'tap').slice(0, PAST_SHOWN)))
  }, [api])
  return sessions.map((session) => (
    <button
      key={session.id}
      className="target"
      onClick={() => void openPastSession(session.id, session)}
      data-past-observed={session.id}
      title="A host's session a tap kept: open it read-only"
    >
      <span className="dot idle" />
      <span style={{ minWidth: 0 }}>
        <div className="target-name">
          <Name value={session.targetName} /> <span className="observed-mark">tap</span>
        </div>
        <div className="target-sub">
          {whenStarted(session.startedAt)}
          {session.owner?.observed?.host ? ` · ${visibleName(hostLabel(session.owner.observed) ?? '')}` : ''}
        </div>
      </span>
      <span />
    </button>
  ))
}
