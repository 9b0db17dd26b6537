import { useState } from 'react'
import type { CardDrift, DriftState } from '../../../../../shared/contract'
import { JsonView } from '../../../components/JsonView'
import { useStore } from '../../../store/store'
import { DRAFT_NOTE } from './ServerCardPreview'
import './serverCard.css'

const BADGE: Record<DriftState, string> = { same: 'ok', 'only in card': 'bad', 'only on server': 'warn', changed: 'warn' }

/** Where an MCP server's card is by default: its origin's well-known path (SEP-2127). */
const wellKnown = (url: string) => new URL('/.well-known/mcp/server-card', url).href

/**
 * A connected MCP server beside its card (SEP-2127, draft): each claim (version, capabilities, protocol version)
 * and each tool, prompt and resource the card lists, in Compare's terms.
 */
export function CardDriftPanel({ connectionId, serverUrl }: { connectionId: string; serverUrl: string }) {
  const [url, setUrl] = useState(() => wellKnown(serverUrl))
  const [drift, setDrift] = useState<CardDrift>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const check = async () => {
    setBusy(true)
    setError(undefined)
    try {
      setDrift(await useStore.getState().api!.invoke('cards.drift', { connectionId, url }))
    } catch (e) {
      setDrift(undefined)
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const rows = drift
    ? [
        ...drift.claims.map((c) => ({ key: c.field, what: c.field, state: c.state, card: c.card, server: c.server, note: '' })),
        ...drift.primitives.map((p) => ({
          key: `${p.kind}:${p.name}`,
          what: `${p.kind} ${p.name}`,
          state: p.state,
          card: undefined,
          server: undefined,
          note: [
            p.dynamic && p.state !== 'same' ? 'a dynamic list (listChanged)' : '',
            ...(p.changes ?? []).map((c) => `${c.path}: ${c.detail}`),
          ]
            .filter(Boolean)
            .join('; '),
        })),
      ]
    : []
  return (
    <div className="card-drift" data-testid="card-drift">
      <div className="section-title">Server card</div>
      <div className="card-drift-bar">
        <input className="input mono" value={url} onChange={(e) => setUrl(e.target.value)} aria-label="Server card URL" />
        <button className="btn" onClick={() => void check()} disabled={busy}>
          {busy ? 'Checking…' : 'Check against the card'}
        </button>
      </div>
      {error && <div className="error-text">{error}</div>}
      {drift && (
        <>
          <div className={`card-drift-verdict ${drift.drift ? 'bad' : 'ok'}`} data-testid="card-drift-verdict">
            {drift.drift ? 'The server differs from its card' : 'The server answers as its card claims'}
            {drift.card.problems.length > 0 && ` · the card departs from the draft: ${drift.card.problems.join('; ')}`}
          </div>
          <table className="grid card-drift-table">
            <thead>
              <tr>
                <th>Claim</th>
                <th>Status</th>
                <th>Card</th>
                <th>Server</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key}>
                  <td className="mono">{r.what}</td>
                  <td>
                    <span className={`badge ${BADGE[r.state]}`}>{r.state}</span>
                  </td>
                  <td>
                    {r.card === undefined ? <span className="muted">{r.note || '—'}</span> : <JsonView value={r.card} openDepth={1} />}
                  </td>
                  <td>{r.server === undefined ? <span className="muted">—</span> : <JsonView value={r.server} openDepth={1} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="hint">{DRAFT_NOTE}</div>
    </div>
  )
}
