import type { ServerCardRead } from '../../../../../shared/contract'
import { JsonView } from '../../../components/JsonView'

/** Where SEP-2127 stands: said wherever a card is shown, since what it checks may still move. */
export const DRAFT_NOTE = 'Server cards follow SEP-2127, a draft: the well-known path and the fields may still change.'

/** The MCP endpoint a card points at: its first streamable HTTP remote, else SSE. */
export function cardEndpoint(card: ServerCardRead): string | undefined {
  return (card.remotes.find((r) => r.type === 'streamable-http') ?? card.remotes.find((r) => r.type === 'sse'))?.url
}

/** What a card (or server.json) claims, before connecting: who, where, what it offers, and where it departs from the draft. */
export function ServerCardPreview({ card }: { card: ServerCardRead }) {
  const listed = (items: Record<string, unknown>[] | undefined, key: string) =>
    items === undefined ? (
      <span className="muted">not listed</span>
    ) : (
      items.map((i) => String(i[key])).join(', ') || <span className="muted">none</span>
    )
  return (
    <div className="card-preview" data-testid="card-preview">
      <dl className="kv">
        <dt>{card.kind === 'server.json' ? 'server.json' : 'Server card'}</dt>
        <dd className="mono">{card.url}</dd>
        <dt>Server</dt>
        <dd>
          {card.title ? `${card.title} · ` : ''}
          <span className="mono">
            {card.name ?? '(no name)'} {card.version ?? '(no version)'}
          </span>
        </dd>
        {card.description && (
          <>
            <dt>Description</dt>
            <dd>{card.description}</dd>
          </>
        )}
        <dt>Endpoints</dt>
        <dd>
          {card.remotes.length === 0 ? (
            <span className="muted">none (a package to run locally, which Parallax does not install)</span>
          ) : (
            card.remotes.map((r) => (
              <div key={r.url} className="mono">
                {r.type} {r.url}
                {r.supportedProtocolVersions?.length ? <span className="muted"> · {r.supportedProtocolVersions.join(', ')}</span> : null}
              </div>
            ))
          )}
        </dd>
        <dt>Capabilities</dt>
        <dd>{card.capabilities ? <JsonView value={card.capabilities} openDepth={1} /> : <span className="muted">not given</span>}</dd>
        <dt>Tools</dt>
        <dd>{listed(card.tools, 'name')}</dd>
        <dt>Prompts</dt>
        <dd>{listed(card.prompts, 'name')}</dd>
        <dt>Resources</dt>
        <dd>{listed(card.resources, 'uri')}</dd>
      </dl>
      {card.problems.length > 0 && (
        <ul className="card-problems" data-testid="card-problems">
          {card.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="hint">{DRAFT_NOTE}</div>
    </div>
  )
}
