import type { McpHandshakeEvent } from '../../../../../shared/contract'
import { CopyButton } from '../../../components/CopyButton'
import { FrameLink } from '../../../components/FrameLink'

const ASKED = {
  negotiate: 'negotiate: 2026-07-28 through server/discover, else the 2025 versions through initialize',
  '2026-only': 'the 2026 era only (no fallback to initialize)',
  '2025-only': 'the 2025 era only (initialize, no server/discover)',
}

/**
 * How the MCP era was reached — what the profile asked, each offer and what the server answered — and the
 * era's rules this connection keeps (discovery, list changes, keepalive). Recordings made before eras were
 * shown have neither, and show nothing here.
 */
export function EraNegotiation({ handshake }: { handshake: McpHandshakeEvent }) {
  const { negotiation, rules } = handshake
  if (!negotiation && !rules) return null
  return (
    <div className="card" style={{ marginTop: 16 }} data-testid="era-negotiation">
      <h3>
        How the era was negotiated
        <span className="spacer" />
        <CopyButton value={() => ({ era: handshake.era, negotiation, rules })} />
      </h3>
      {negotiation && (
        <>
          <p data-testid="era-summary">{negotiation.summary}</p>
          <dl className="kv">
            <dt>Asked</dt>
            <dd>{ASKED[negotiation.ask]}</dd>
          </dl>
          <table className="grid" data-testid="era-steps">
            <thead>
              <tr>
                <th>Offer</th>
                <th>Versions offered</th>
                <th>Server answered</th>
                <th>Taken</th>
                <th className="num">Frame</th>
              </tr>
            </thead>
            <tbody>
              {negotiation.steps.map((step, i) => (
                <tr key={i} data-method={step.method} data-accepted={step.accepted}>
                  <td className="mono">{step.method}</td>
                  <td className="mono">{step.offered.join(', ') || '—'}</td>
                  <td>{step.answer}</td>
                  <td>
                    <span className={`status ${step.accepted ? 'called' : 'skipped'}`}>{step.accepted ? 'taken' : 'not taken'}</span>
                  </td>
                  <td className="num mono muted">
                    {step.frameSeq !== undefined && (
                      <FrameLink connectionId={handshake.connectionId} seq={step.frameSeq} label="" title="The frame of this offer" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {rules && (
        <>
          <div className="section-title">Rules this connection keeps</div>
          <dl className="kv" data-testid="era-rules">
            <dt>Discovery</dt>
            <dd>{rules.discovery}</dd>
            <dt>List changes</dt>
            <dd>{rules.listChanged}</dd>
            <dt>Keepalive</dt>
            <dd>{rules.keepalive}</dd>
          </dl>
        </>
      )}
    </div>
  )
}
