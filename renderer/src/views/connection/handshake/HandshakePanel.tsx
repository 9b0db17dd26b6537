import { useState } from 'react'
import { eraLabel, handshakeEra } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { ms } from '../../../components/format'
import { AgentText, Name } from '../../../components/Name'
import { useStore } from '../../../store/store'
import { CardDriftPanel } from '../serverCard/CardDriftPanel'
import { AdcpAgentRow } from './AdcpAgentRow'
import { EraNegotiation } from './EraNegotiation'
import { ClientRows, HandshakeSide, NoHandshake } from './HandshakeParts'
import './handshake.css'

const CLIENT_CAPS = ['roots', 'sampling', 'elicitation', 'experimental']
const SERVER_CAPS = ['tools', 'prompts', 'resources', 'logging', 'completions', 'tasks', 'experimental']

/** What the client offered next to what the server answered, with the negotiated version highlighted. */
export function HandshakePanel({ view }: { view: ConnectionView }) {
  const h = view.handshake?.protocol === 'mcp' ? view.handshake : undefined
  // An MCP server over HTTP may have a server card (SEP-2127) at its origin's well-known path.
  const httpUrl = useStore((s) => {
    const spec = s.targets.find((t) => t.id === view.targetId)?.spec
    return spec?.kind === 'mcp-http' ? spec.url : undefined
  })
  if (!h)
    return (
      <NoHandshake
        view={view}
        failed="The connection failed before initialize completed"
        waiting="Negotiating the MCP era: server/discover offers 2026-07-28, initialize the 2025 versions."
      />
    )
  const same = h.requestedProtocolVersion === h.protocolVersion
  const era = handshakeEra(h)
  return (
    <div className="panel">
      <div className="cols">
        <HandshakeSide
          title={h.observed ? 'Offered by the host' : 'Client offered'}
          message={() => ({ protocolVersion: h.requestedProtocolVersion, capabilities: h.clientCapabilities, clientInfo: h.clientInfo })}
          capabilities={h.clientCapabilities}
        >
          <ClientRows version={h.requestedProtocolVersion} client={h.clientInfo} profile={h.profile} observed={h.observed} />
          <dt>{h.observed ? "The host's capabilities" : 'Capabilities'}</dt>
          <dd>
            <Caps names={CLIENT_CAPS} caps={h.clientCapabilities} />
          </dd>
        </HandshakeSide>
        <HandshakeSide
          title="Server answered"
          message={() => ({
            protocolVersion: h.protocolVersion,
            capabilities: h.serverCapabilities,
            serverInfo: h.serverInfo,
            instructions: h.instructions,
          })}
          capabilities={h.serverCapabilities}
          below={
            <>
              {h.instructions && (
                <>
                  <div className="section-title">Instructions</div>
                  <Instructions text={h.instructions} />
                </>
              )}
              <div className="section-title">Capabilities as sent</div>
            </>
          }
        >
          <dt>Era</dt>
          <dd>
            <span className={`badge ${era === '2026' ? 'ok' : 'idle'}`} data-testid="negotiated-era">
              {eraLabel(era)}
            </span>
            <span className="muted"> {era === '2026' ? 'server/discover, no initialize, no ping' : 'initialize and ping'}</span>
          </dd>
          <dt>Negotiated version</dt>
          <dd>
            <span className={`version ${same ? 'match' : 'differs'}`} data-testid="negotiated-version">
              {h.protocolVersion ?? '—'}
            </span>
            {!same && <span className="muted"> differs from the version asked</span>}
          </dd>
          <dt>Server</dt>
          <dd>
            {h.serverInfo ? (
              <Name value={`${h.serverInfo.title ?? h.serverInfo.name} (${h.serverInfo.name} ${h.serverInfo.version})`} />
            ) : (
              '—'
            )}
          </dd>
          <dt>Transport</dt>
          <dd>
            {h.transport}
            {view.pid ? <span className="muted"> · pid {view.pid}</span> : null}
            <span className="muted"> · connected in {ms(h.durationMs)}</span>
          </dd>
          <dt>Capabilities</dt>
          <dd>
            <Caps names={SERVER_CAPS} caps={h.serverCapabilities} />
          </dd>
          <AdcpAgentRow view={view} />
        </HandshakeSide>
      </div>
      <EraNegotiation handshake={h} />
      {httpUrl && !h.observed && <CardDriftPanel key={view.id} connectionId={view.id} serverUrl={httpUrl} />}
    </div>
  )
}

function Caps({ names, caps }: { names: string[]; caps: Record<string, unknown> }) {
  const all = [...new Set([...names, ...Object.keys(caps)])]
  return (
    <span className="caps">
      {all.map((name) => (
        <span key={name} className={`cap${caps[name] ? ' on' : ''}`} title={caps[name] ? 'advertised' : 'not advertised'}>
          {caps[name] ? '✓ ' : ''}
          {name}
        </span>
      ))}
    </span>
  )
}

/** Server instructions: shown whole when short; long ones collapse to a few lines, with a way to see all. */
function Instructions({ text }: { text: string }) {
  const long = text.length > 600 || text.split('\n').length > 8
  const [open, setOpen] = useState(!long)
  return (
    <div className="instructions-box" data-testid="instructions">
      <AgentText value={text} className={`instructions${open ? '' : ' collapsed'}`} />
      {long && (
        <button className="btn ghost small" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${text.length.toLocaleString()} characters)`}
        </button>
      )}
    </div>
  )
}
