import { ACP_HINT_FIELD, type AcpHandshakeEvent } from '../../../../../shared/contract'
import { ms } from '../../../components/format'
import { AgentText } from '../../../components/Name'
import type { ConnectionView } from '../../../store/connectionView'
import { ClientRows, HandshakeSide, NoHandshake } from './HandshakeParts'
import './handshake.css'

/**
 * An ACP agent's handshake: what Parallax offered (version, fs and terminal as the profile and the workspace
 * allow, the requested tool categories hint and how it travelled) beside what the agent answered (version,
 * prompt content kinds, session loading, MCP server support, auth methods), then the session it opened and
 * how keepalive watches it — ACP has no ping.
 */
export function AcpHandshakePanel({ view }: { view: ConnectionView }) {
  const h = view.handshake?.protocol === 'acp' ? (view.handshake as AcpHandshakeEvent) : undefined
  if (!h)
    return (
      <NoHandshake
        view={view}
        failed="The agent could not be started or answered no initialize"
        waiting="Starting the agent and sending initialize."
      />
    )
  const caps = h.agentCapabilities as {
    loadSession?: boolean
    promptCapabilities?: { image?: boolean; audio?: boolean; embeddedContext?: boolean }
    mcpCapabilities?: { http?: boolean; sse?: boolean }
  }
  const offered = h.clientCapabilities as { fs?: { readTextFile?: boolean; writeTextFile?: boolean }; terminal?: boolean }
  const kinds = [
    'text',
    'resource_link',
    ...(['image', 'audio'] as const).filter((k) => caps.promptCapabilities?.[k]),
    ...(caps.promptCapabilities?.embeddedContext ? ['resource'] : []),
  ]
  const mcp = ['stdio', ...(caps.mcpCapabilities?.http ? ['http'] : []), ...(caps.mcpCapabilities?.sse ? ['sse'] : [])]
  return (
    <div className="panel" data-testid="acp-handshake">
      <div className="cols">
        <HandshakeSide
          title={h.observed ? 'Offered by the host' : 'Client offered'}
          message={() => ({
            protocolVersion: h.requestedProtocolVersion,
            clientCapabilities: h.clientCapabilities,
            clientInfo: h.clientInfo,
          })}
          capabilities={h.clientCapabilities}
        >
          <ClientRows version={h.requestedProtocolVersion} client={h.clientInfo} profile={h.profile} observed={h.observed} />
          <dt>Files</dt>
          <dd>
            {offered.fs?.readTextFile || offered.fs?.writeTextFile
              ? `${[offered.fs.readTextFile && 'read', offered.fs.writeTextFile && 'write'].filter(Boolean).join(' and ')} in ${h.workspace}`
              : 'not offered'}
          </dd>
          <dt>Terminal</dt>
          <dd>{offered.terminal ? 'offered: each command waits for your approval' : 'not offered'}</dd>
          <dt>Tool categories</dt>
          <dd data-testid="acp-hint">
            {h.hint ? (
              <>
                asked for <strong>{h.hint.categories.join(', ')}</strong>
                <span className="muted">
                  {' '}
                  as {h.hint.via.map((v) => (v === 'field' ? ACP_HINT_FIELD : '_meta')).join(' and ')} — a hint the agent may ignore:
                  Compare shows whether it did
                </span>
              </>
            ) : (
              <span className="muted">no hint</span>
            )}
          </dd>
          {h.notOffered?.length ? (
            <>
              <dt>Not offered</dt>
              <dd>
                {h.notOffered.map((n) => (
                  <div key={n} className="muted">
                    {n}
                  </div>
                ))}
              </dd>
            </>
          ) : null}
        </HandshakeSide>
        <HandshakeSide
          title="Agent answered"
          message={() => ({
            protocolVersion: h.protocolVersion,
            agentCapabilities: h.agentCapabilities,
            agentInfo: h.agentInfo,
            authMethods: h.authMethods,
          })}
          capabilities={h.agentCapabilities}
        >
          <dt>Protocol version</dt>
          <dd>
            <span className="version">{h.protocolVersion ?? '—'}</span>
            {h.protocolVersion !== h.requestedProtocolVersion && <span className="badge warn"> differs from the one asked</span>}
          </dd>
          <dt>Agent</dt>
          <dd>
            <AgentText value={`${h.agentInfo?.title ?? h.agentInfo?.name ?? '—'} ${h.agentInfo?.version ?? ''}`} />
          </dd>
          <dt>Prompts may carry</dt>
          <dd>{kinds.join(', ')}</dd>
          <dt>Sessions</dt>
          <dd>{caps.loadSession ? 'new, and loaded again (session/load)' : 'new only (no session/load)'}</dd>
          <dt>MCP servers</dt>
          <dd>{mcp.join(', ')}</dd>
          <dt>Auth methods</dt>
          <dd>{h.authMethods.length ? h.authMethods.map((m) => m.name || m.id).join(', ') : 'none'}</dd>
          <dt>Took</dt>
          <dd>{ms(h.durationMs)}</dd>
        </HandshakeSide>
      </div>
      <div className="card" style={{ marginTop: 16 }}>
        <h3>Session</h3>
        {h.session ? (
          <dl className="kv">
            <dt>Session</dt>
            <dd className="mono" data-testid="acp-session">
              {h.session.sessionId} <span className="muted">({h.session.how === 'load' ? 'session/load' : 'session/new'})</span>
            </dd>
            {h.session.reason && (
              <>
                <dt>Why</dt>
                <dd>{h.session.reason}</dd>
              </>
            )}
            <dt>Working folder</dt>
            <dd className="mono">{h.session.cwd}</dd>
            <dt>MCP servers handed</dt>
            <dd>
              {h.session.mcpServers.length ? h.session.mcpServers.map((s) => `${s.name} (${s.transport})`).join(', ') : 'none'}
              {h.session.mcpServersSkipped?.map((s) => (
                <div key={s.name} className="muted">
                  not handed: {s.name} — {s.why}
                </div>
              ))}
            </dd>
            {h.session.modes && (
              <>
                <dt>Modes</dt>
                <dd>
                  {h.session.modes.available
                    .map((m) => (m.id === h.session?.modes?.currentModeId ? `${m.name} (current)` : m.name))
                    .join(', ')}
                </dd>
              </>
            )}
          </dl>
        ) : (
          <div className="muted">No session: {view.reason ?? 'session/new did not complete'}.</div>
        )}
        <div className="muted" style={{ marginTop: 8 }}>
          {h.keepalive}
        </div>
      </div>
    </div>
  )
}
