import type { ConnectionView } from '../../../store/connectionView'
import { clock, ms } from '../../../components/format'

/** Every discovery step in order: called, skipped or failed, why, how many items and how long. */
export function DiscoveryPanel({ view }: { view: ConnectionView }) {
  if (view.discovery.length === 0) {
    return (
      <div className="panel">
        <div className="empty">
          <h2>No discovery yet</h2>
          <p>Discovery runs right after the handshake: each list call is made only when the server advertised its capability.</p>
        </div>
      </div>
    )
  }
  // The MCP era's rules, as this connection keeps them: where the capabilities came from, how list changes arrive.
  const rules = view.handshake?.protocol === 'mcp' ? view.handshake.rules : undefined
  return (
    <div className="panel">
      {rules && (
        <dl className="kv" style={{ marginBottom: 12 }} data-testid="discovery-rules">
          <dt>Rule</dt>
          <dd>{rules.discovery}</dd>
          <dt>List changes</dt>
          <dd>{rules.listChanged}</dd>
        </dl>
      )}
      <table className="grid" data-testid="discovery">
        <thead>
          <tr>
            <th>Time</th>
            <th>Method</th>
            <th>Status</th>
            <th>Reason</th>
            <th className="num">Items</th>
            <th className="num">Duration</th>
            <th>Trigger</th>
          </tr>
        </thead>
        <tbody>
          {view.discovery.map((d) => (
            <tr key={d.seq} className={d.oddity ? 'oddity' : ''} data-method={d.method} data-status={d.status}>
              <td className="mono muted">{clock(d.ts)}</td>
              <td className="mono">{d.method}</td>
              <td>
                <span className={`status ${d.status}`}>{d.status}</span>
              </td>
              <td>
                {d.oddity && (
                  <span className="badge warn" style={{ marginRight: 6 }}>
                    protocol oddity
                  </span>
                )}
                {d.reason}
                {d.errorCode !== undefined && <span className="muted"> (code {d.errorCode})</span>}
              </td>
              <td className="num">{d.count ?? ''}</td>
              <td className="num">{ms(d.durationMs)}</td>
              <td className="muted">{d.trigger.replace('_', ' ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
