import type { ConnectionView } from '../store/connectionView'
import { CopyButton } from './CopyButton'
import { JsonView } from './JsonView'

interface Tool { name: string; title?: string; description?: string; inputSchema?: { properties?: Record<string, unknown>; required?: string[] }; outputSchema?: unknown }
interface Prompt { name: string; title?: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }
interface Resource { uri: string; name?: string; title?: string; mimeType?: string; description?: string }
interface Template { uriTemplate: string; name?: string; title?: string; mimeType?: string; description?: string }

export function catalogCount(view: ConnectionView): number {
  return Object.values(view.catalog).reduce((n, items) => n + (items?.length ?? 0), 0)
}

/** Tools, prompts, resources and templates as the server listed them, with their schemas. */
export function CatalogPanel({ view }: { view: ConnectionView }) {
  const tools = (view.catalog['tools/list'] ?? []) as Tool[]
  const prompts = (view.catalog['prompts/list'] ?? []) as Prompt[]
  const resources = (view.catalog['resources/list'] ?? []) as Resource[]
  const templates = (view.catalog['resources/templates/list'] ?? []) as Template[]
  if (catalogCount(view) === 0) {
    return (
      <div className="panel">
        <div className="empty">
          <h2>Empty catalog</h2>
          <p>The server listed nothing, or discovery skipped every list: see the Discovery tab for why.</p>
        </div>
      </div>
    )
  }
  return (
    <div className="panel" data-testid="catalog">
      <Section title="Tools" items={tools}>
        {tools.map((t) => {
          const required = new Set(t.inputSchema?.required ?? [])
          return (
            <details className="item" key={t.name}>
              <summary>
                <span className="item-name">{t.name}</span>
                <span className="item-desc">{t.description}</span>
              </summary>
              <div className="item-body">
                <div className="fields">
                  {Object.keys(t.inputSchema?.properties ?? {}).map((p) => (
                    <span key={p} className={`field${required.has(p) ? ' required' : ''}`} title={required.has(p) ? 'required' : 'optional'}>
                      {p}
                      {required.has(p) ? '*' : ''}
                    </span>
                  ))}
                </div>
                <JsonView value={t.inputSchema} openDepth={3} />
                {t.outputSchema !== undefined && (
                  <>
                    <div className="section-title">Output schema</div>
                    <JsonView value={t.outputSchema} openDepth={1} />
                  </>
                )}
              </div>
            </details>
          )
        })}
      </Section>
      <Section title="Prompts" items={prompts}>
        {prompts.map((p) => (
          <details className="item" key={p.name}>
            <summary>
              <span className="item-name">{p.name}</span>
              <span className="item-desc">{p.description}</span>
            </summary>
            <div className="item-body">
              <div className="fields">
                {(p.arguments ?? []).map((a) => (
                  <span key={a.name} className={`field${a.required ? ' required' : ''}`} title={a.description}>
                    {a.name}
                    {a.required ? '*' : ''}
                  </span>
                ))}
              </div>
              <JsonView value={p} openDepth={2} />
            </div>
          </details>
        ))}
      </Section>
      <Section title="Resources" items={resources}>
        {resources.map((r) => (
          <details className="item" key={r.uri}>
            <summary>
              <span className="item-name">{r.uri}</span>
              <span className="item-desc">
                {r.title ?? r.name}
                {r.mimeType ? ` · ${r.mimeType}` : ''}
              </span>
            </summary>
            <div className="item-body">
              <JsonView value={r} />
            </div>
          </details>
        ))}
      </Section>
      <Section title="Resource templates" items={templates}>
        {templates.map((r) => (
          <details className="item" key={r.uriTemplate}>
            <summary>
              <span className="item-name">{r.uriTemplate}</span>
              <span className="item-desc">{r.title ?? r.name}</span>
            </summary>
            <div className="item-body">
              <JsonView value={r} />
            </div>
          </details>
        ))}
      </Section>
    </div>
  )
}

function Section({ title, items, children }: { title: string; items: unknown[]; children: React.ReactNode }) {
  if (items.length === 0) return null
  return (
    <>
      <div className="section-title">
        {title} <span className="count">{items.length}</span>
        <CopyButton value={() => items} />
      </div>
      {children}
    </>
  )
}
