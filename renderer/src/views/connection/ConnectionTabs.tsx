import { useStore, type Tab, type TABS } from '../../store/store'
import type { SavedTarget } from '../../../../shared/contract'
import { openTab } from '../../store/actions'
import type { ConnectionView } from '../../store/connectionView'
import { pendingMoreAccess } from '../../store/authActions'
import { A2aCardPanel } from './handshake/A2aCardPanel'
import { CallsPanel } from './calls/CallsPanel'
import { CatalogPanel, catalogCount } from './catalog/CatalogPanel'
import { ConversationPanel } from './conversation/ConversationPanel'
import { DiscoveryPanel } from './discovery/DiscoveryPanel'
import { FramesPanel } from './frames/FramesPanel'
import { AcpHandshakePanel } from './handshake/AcpHandshakePanel'
import { HandshakePanel } from './handshake/HandshakePanel'
import { KeepalivePanel } from './keepalive/KeepalivePanel'
import { LogPanel } from './log/LogPanel'
import { SkillsPanel } from './catalog/SkillsPanel'
import { McpSkills } from './catalog/McpSkills'
import { AcpCommandsPanel } from './catalog/AcpCommandsPanel'
import { AuthPanel } from './auth/AuthPanel'
import { HistoryPanel, type HistoryOf } from './history/HistoryPanel'
import { TimelinePanel } from './timeline/TimelinePanel'
import { TimeStrip } from './timeline/TimeStrip'

/**
 * A connection's tabs and the one shown: a target's page shows its live session's, a past session's page
 * (History) the same views of what was kept, read-only.
 */
export function ConnectionTabs({
  view,
  tabs,
  tab,
  target,
  history = target,
}: {
  view: ConnectionView
  tabs: typeof TABS
  tab: Tab
  target?: SavedTarget
  /** Whose sessions the History tab lists: the target's, or an observed session's tap name. */
  history?: HistoryOf
}) {
  return (
    <>
      <nav className="tabs" role="tablist">
        {tabs.map((t, i) => (
          <button
            key={t.id}
            role="tab"
            aria-selected={tab === t.id}
            className={`tab${tab === t.id ? ' active' : ''}`}
            onClick={() => openTab(t.id)}
            title={`${view.protocol === 'a2a' ? (t.a2aLabel ?? t.label) : t.label}${i < 9 ? ` (${i + 1})` : ''}`}
          >
            {view.protocol === 'a2a' ? (t.a2aLabel ?? t.label) : t.label}
            <TabCount view={view} tab={t.id} />
          </button>
        ))}
      </nav>
      <TimeStrip view={view} />
      <TabBody view={view} tab={tab} target={target} history={history} />
    </>
  )
}

function TabCount({ view, tab }: { view: ConnectionView; tab: Tab }) {
  const steps = useStore((s) => s.authSteps[view.targetId])
  if (tab === 'auth') {
    if (steps && pendingMoreAccess(steps)) return <span className="count warn">more access</span>
    return view.cause?.auth ? <span className="count warn">sign in</span> : null
  }
  const n =
    tab === 'handshake' && view.handshake?.protocol === 'a2a'
      ? view.handshake.warnings.length
      : tab === 'discovery'
        ? view.discovery.length
        : tab === 'catalog'
          ? view.handshake?.protocol === 'a2a'
            ? view.handshake.skills.length
            : catalogCount(view)
          : tab === 'conversation'
            ? view.conversation.length
            : tab === 'calls'
              ? view.calls.length
              : tab === 'keepalive'
                ? view.probes.length
                : tab === 'frames'
                  ? view.frames.length
                  : tab === 'log'
                    ? view.logs.length
                    : undefined
  if (!n) return null
  const warn =
    ((tab === 'discovery' || tab === 'handshake') && view.oddities > 0) ||
    (tab === 'log' && view.logOddities > 0) ||
    ((tab === 'conversation' || tab === 'calls') && view.adcp.length > 0)
  return <span className={`count${warn ? ' warn' : ''}`}>{n.toLocaleString()}</span>
}

function TabBody({ view, tab, target, history }: { view: ConnectionView; tab: Tab; target?: SavedTarget; history?: HistoryOf }) {
  switch (tab) {
    case 'handshake':
      return view.handshake?.protocol === 'a2a' ? (
        <A2aCardPanel handshake={view.handshake} view={view} />
      ) : view.protocol === 'acp' ? (
        <AcpHandshakePanel view={view} />
      ) : (
        <HandshakePanel view={view} />
      )
    case 'discovery':
      return <DiscoveryPanel view={view} />
    case 'catalog':
      return view.protocol === 'a2a' ? (
        <SkillsPanel handshake={view.handshake?.protocol === 'a2a' ? view.handshake : undefined} targetId={view.targetId} />
      ) : view.protocol === 'acp' ? (
        <AcpCommandsPanel view={view} />
      ) : (
        <CatalogPanel view={view} extensions={<McpSkills view={view} />} />
      )
    case 'conversation':
      return <ConversationPanel view={view} />
    case 'calls':
      return <CallsPanel view={view} />
    case 'keepalive':
      return <KeepalivePanel view={view} />
    case 'frames':
      return <FramesPanel view={view} filterKey={view.past ? view.id : view.targetId} />
    case 'log':
      return <LogPanel view={view} />
    case 'auth':
      return target ? <AuthPanel target={target} view={view} /> : null
    case 'history':
      return history ? <HistoryPanel target={history} /> : null
    case 'timeline':
      return <TimelinePanel view={view} />
  }
}
