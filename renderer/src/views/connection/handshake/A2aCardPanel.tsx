import type { A2aHandshakeEvent } from '../../../../../shared/contract'
import { CopyButton } from '../../../components/CopyButton'
import { ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { Name } from '../../../components/Name'

/** The agent card as fetched: generation, chosen interface and why, capabilities, warnings, the card itself. */
export function A2aCardPanel({ handshake: h }: { handshake: A2aHandshakeEvent }) {
  const caps = h.capabilities
  return (
    <div className="panel" data-testid="agent-card">
      {h.warnings.length > 0 && (
        <div className="card warnings" style={{ marginBottom: 16 }}>
          <h3>
            {h.warnings.length} problem{h.warnings.length === 1 ? '' : 's'} in the card
          </h3>
          <ul>
            {h.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="cols">
        <div className="card">
          <h3>Agent</h3>
          <dl className="kv">
            <dt>Name</dt>
            <dd>
              <Name value={String((h.agentCard as { name?: unknown }).name ?? '—')} />
            </dd>
            <dt>Generation</dt>
            <dd>
              <span className={`version ${h.generation === '1.0' ? 'match' : 'differs'}`} data-testid="generation">
                A2A v{h.generation}
              </span>
              <div className="muted">{h.generationReason}</div>
            </dd>
            <dt>Interface</dt>
            <dd>
              {h.chosenInterface ? (
                <>
                  <span className="version">
                    {h.chosenInterface.protocolBinding} {h.chosenInterface.protocolVersion}
                  </span>{' '}
                  <span className="mono">{h.chosenInterface.url}</span>
                </>
              ) : (
                <span className="status failed">none usable</span>
              )}
              <div className="muted">{h.interfaceReason}</div>
            </dd>
            <dt>Card</dt>
            <dd>
              <span className="mono">{h.cardUrl}</span> <span className="muted">· fetched in {ms(h.durationMs)}</span>
            </dd>
            <dt>Capabilities</dt>
            <dd className="caps">
              {(['streaming', 'pushNotifications', 'extendedAgentCard'] as const).map((name) => (
                <span key={name} className={`cap${caps[name] ? ' on' : ''}`}>
                  {caps[name] ? '✓ ' : ''}
                  {name}
                </span>
              ))}
            </dd>
            <dt>Extensions</dt>
            <dd>
              {caps.extensions.length === 0
                ? 'none'
                : caps.extensions.map((e) => (
                    <div key={e.uri} className="mono">
                      {e.uri}
                      {e.required ? ' (required)' : ''}
                    </div>
                  ))}
            </dd>
          </dl>
          <div className="section-title">Interfaces in the card</div>
          <table className="grid">
            <tbody>
              {h.interfaces.map((i, n) => {
                const chosen =
                  h.chosenInterface &&
                  i.url === h.chosenInterface.url &&
                  i.protocolBinding === h.chosenInterface.protocolBinding &&
                  i.protocolVersion === h.chosenInterface.protocolVersion
                return (
                  <tr key={n}>
                    <td>{chosen ? <span className="status called">chosen</span> : null}</td>
                    <td className="mono">{i.protocolBinding}</td>
                    <td className="mono">{i.protocolVersion}</td>
                    <td className="mono">{i.url}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        <div className="card">
          <h3>
            The card as fetched
            <span className="spacer" />
            <CopyButton value={() => h.agentCard} />
          </h3>
          <JsonView value={h.agentCard} openDepth={1} />
        </div>
      </div>
    </div>
  )
}
