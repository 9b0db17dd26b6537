import { visibleName, visibleText } from '../../../../shared/contract'
import { AgentText, Name } from '../../components/Name'
import { timeOfDay } from '../../components/format'
import { hostLabel, tappedWhat } from '../../components/connectionLabel'
import { statusTone } from '../../store/connectionView'
import { TABS, useStore, type Tab } from '../../store/store'
import { stopFollowing } from '../../store/tapActions'
import { ConnectionTabs } from '../connection/ConnectionTabs'
import { Findings } from './Findings'
import { HoldBanner, HoldPanel } from './HoldPanel'
import '../connection/connection.css'
import './observed.css'

/** The views of an observed session: all that read what crossed; no Calls (Parallax sends nothing) and no Auth (the host signs in). */
const OBSERVED_TABS = TABS.filter((t) => t.id !== 'calls' && t.id !== 'auth')

/**
 * A session a host runs through `parallax tap`, as it happens: the host (as it named itself) and what the
 * tap relays, the findings about the host and the server first, then every view of a connection — with
 * nothing that sends, since the session is the host's. Stopping following leaves the host's session as it is.
 */
export function ObservedPage({ connectionId }: { connectionId: string }) {
  const view = useStore((s) => s.connections[connectionId])
  const tab = useStore((s) => s.tab)
  if (!view)
    return (
      <section className="main" aria-label="Observed session">
        <div className="panel">
          <div className="empty">
            <h2>This watched session is no longer here</h2>
            <p className="muted">It was shown in an earlier run of the app: its tap&apos;s own session is in History.</p>
          </div>
        </div>
      </section>
    )
  const observed = view.owner.observed ?? { via: 'stdio' as const }
  const host = hostLabel(observed)
  const live = view.state !== 'closed' && view.state !== 'failed'
  const tone = statusTone(view)
  const shown: Tab = OBSERVED_TABS.some((t) => t.id === tab) ? tab : 'frames'
  const peer = view.protocol === 'acp' ? 'agent' : 'server'
  return (
    <section className="main" aria-label={`Observed session ${visibleName(view.targetName)}`}>
      <header className="page-head">
        <div style={{ minWidth: 0 }}>
          <div className="page-title observed-title" title={visibleName(view.targetName)}>
            <Name value={view.targetName} />
            <span className="badge observed-badge" data-testid="observed-badge" title="A host's own session, watched through parallax tap">
              observed · tap
            </span>
          </div>
          <div className="page-sub observed-sub" title={visibleText(tappedWhat(observed))}>
            <span data-testid="observed-host" className="observed-host">
              host {host ? <strong>{visibleName(host)}</strong> : <span>not named yet (its handshake names it)</span>}
            </span>
            <span className="observed-command">
              {observed.via === 'http' ? 'relays ' : 'runs '}
              <AgentText value={tappedWhat(observed)} />
            </span>
          </div>
        </div>
        <span
          className={`badge ${tone}`}
          data-testid="connection-state"
          title={`Watched since ${timeOfDay(view.openedAt)}${observed.pid ? `, tap process ${observed.pid}` : ''}`}
        >
          <span className={`dot ${tone}`} />
          {live ? `${view.state} · live` : view.state}
        </span>
        <div className="page-actions">
          {live && (
            <button
              className="btn"
              onClick={() => stopFollowing(view.id)}
              title={`Stop showing it here: the host and the ${peer} go on as they are, and the tap keeps writing its session (History)`}
            >
              Stop following
            </button>
          )}
        </div>
      </header>
      <HoldBanner view={view} />
      <div className="past-note observed-note" role="note" data-testid="observed-note">
        Observed through <code>parallax tap</code>: the host drives this session, and Parallax sends nothing into it — no calls, requests or
        resends from here. What the host sent and the {peer} answered is read as it crosses.
      </div>
      {view.reason && !live && <div className={`reason ${view.state === 'failed' ? 'bad' : ''}`}>{visibleText(view.reason)}</div>}
      <HoldPanel view={view} />
      <Findings view={view} />
      <ConnectionTabs view={view} tabs={OBSERVED_TABS} tab={shown} history={{ id: view.targetId, name: view.targetName }} />
    </section>
  )
}
