import type { A2aSecuritySummary } from '../../../../../shared/contract'

/** The card's security schemes, which of them a request must satisfy, and what Parallax does about them. */
export function SecuritySchemes({ security }: { security?: A2aSecuritySummary }) {
  if (!security || security.schemes.length === 0) return <p className="muted">The card names no security scheme.</p>
  return (
    <div data-testid="a2a-security">
      <dl className="kv">
        {security.schemes.map((s) => (
          <div key={s.name} style={{ display: 'contents' }}>
            <dt className="mono">{s.name}</dt>
            <dd>
              <span className="cap on">{s.type}</span> {s.detail}
            </dd>
          </div>
        ))}
        <dt>Required</dt>
        <dd>
          {security.requirements.length === 0
            ? 'nothing: any request is accepted'
            : security.requirements.map((set) => set.join(' and ')).join(', or ')}
        </dd>
        <dt>Parallax</dt>
        <dd>{security.choice}</dd>
      </dl>
    </div>
  )
}
