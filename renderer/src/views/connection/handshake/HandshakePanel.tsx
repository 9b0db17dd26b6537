import { useState } from 'react'
import { eraLabel, handshakeEra } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { CopyButton } from '../../../components/CopyButton'
import { ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { AgentText, Name } from '../../../components/Name'
import { EraNegotiation } from './EraNegotiation'

const CLIENT_CAPS = ['roots', 'sampling', 'elicitation', 'experimental']
const SERVER_CAPS = ['tools', 'prompts', 'resources', 'logging', 'completions', 'tasks', 'experimental']

/** What the client offered next to what the server answered, with the negotiated version highlighted. */
export function HandshakePanel({ view }: { view: ConnectionView }) {
  const h = view.handshake?.protocol === 'mcp' ? view.handshake : undefined
  if (!h) {
    return (
      <div className="panel">
        <div className="empty">
          <h2>{view.state === 'failed' ? 'No handshake' : 'Waiting for the handshake…'}</h2>
          <p>
            {view.state === 'failed'
              ? `The connection failed before initialize completed: ${view.reason ?? 'see the Log tab'}.`
              : 'Negotiating the MCP era: server/discover offers 2026-07-28, initialize the 2025 versions.'}
          </p>
        </div>
      </div>
    )
  }
  const same = h.requestedProtocolVersion === h.protocolVersion
  const era = handshakeEra(h)
  return (
    <div className="panel">
      <div className="cols">
        <div className="card">
          <h3>
            Client offered
            <span className="spacer" />
            <CopyButton
              value={() => ({ protocolVersion: h.requestedProtocolVersion, capabilities: h.clientCapabilities, clientInfo: h.clientInfo })}
            />
          </h3>
          <dl className="kv">
            <dt>Protocol version</dt>
            <dd>
              <span className="version">{h.requestedProtocolVersion ?? '—'}</span>
            </dd>
            <dt>Client</dt>
            <dd>
              {h.clientInfo.name} {h.clientInfo.version}
            </dd>
            <dt>Profile</dt>
            <dd data-testid="handshake-profile">{h.profile ?? '—'}</dd>
            <dt>Capabilities</dt>
            <dd>
              <Caps names={CLIENT_CAPS} caps={h.clientCapabilities} />
            </dd>
          </dl>
          <JsonView value={h.clientCapabilities} />
        </div>
        <div className="card">
          <h3>
            Server answered
            <span className="spacer" />
            <CopyButton
              value={() => ({
                protocolVersion: h.protocolVersion,
                capabilities: h.serverCapabilities,
                serverInfo: h.serverInfo,
                instructions: h.instructions,
              })}
            />
          </h3>
          <dl className="kv">
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
          </dl>
          {h.instructions && (
            <>
              <div className="section-title">Instructions</div>
              <Instructions text={h.instructions} />
            </>
          )}
          <div className="section-title">Capabilities as sent</div>
          <JsonView value={h.serverCapabilities} />
        </div>
      </div>
      <EraNegotiation handshake={h} />
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
