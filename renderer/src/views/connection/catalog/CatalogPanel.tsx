import { appToolUi, handshakeEra, paramHeaderProblem } from '../../../../../shared/contract'
import { sendsNothing, type ConnectionView } from '../../../store/connectionView'
import { actOn } from '../../../store/actions'
import type { EntryKind } from '../../../store/store'
import { CopyButton } from '../../../components/CopyButton'
import { JsonView } from '../../../components/JsonView'
import { AgentText, Name } from '../../../components/Name'
import { AppBadge, AppResourceMetadata, AppToolMetadata, isAppResource } from './AppMetadata'
import type { Prompt, Resource, Template, Tool } from './catalogEntries'
import './catalog.css'

export function catalogCount(view: ConnectionView): number {
  return Object.values(view.catalog).reduce((n, items) => n + (items?.length ?? 0), 0)
}

/** Tools, prompts, resources and templates as the server listed them, with their schemas; each with its action (Call, Get, Read). */
export function CatalogPanel({ view, extensions }: { view: ConnectionView; extensions?: React.ReactNode }) {
  const live = view.state === 'connected' || view.state === 'degraded'
  // An observed session is the host's: nothing is called from here.
  const act = (kind: EntryKind, name: string, label: string, title: string) =>
    sendsNothing(view) ? undefined : { label, title, disabled: !live, run: () => actOn(view.targetId, kind, name) }
  const tools = (view.catalog['tools/list'] ?? []) as Tool[]
  const prompts = (view.catalog['prompts/list'] ?? []) as Prompt[]
  const resources = (view.catalog['resources/list'] ?? []) as Resource[]
  const templates = (view.catalog['resources/templates/list'] ?? []) as Template[]
  const h = view.handshake?.protocol === 'mcp' ? view.handshake : undefined
  // SEP-2243: the engine does not call a tool with an invalid x-mcp-header over streamable HTTP in the 2026 era.
  const excludes = h?.transport === 'streamable-http' && handshakeEra(h) === '2026'
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
          const app = appToolUi(t)
          const headerProblem = paramHeaderProblem(t)
          const call = act(
            'tool',
            t.name,
            'Call',
            app
              ? 'Call it from a form of its arguments (Calls); its view opens above the tabs'
              : 'Call it from a form of its arguments (Calls)',
          )
          return (
            <CatalogItem
              key={t.name}
              name={t.name}
              description={
                app || headerProblem ? (
                  <>
                    {headerProblem && <ParamHeaderBadge excluded={excludes} />}
                    {app && <AppBadge title={`An MCP App tool: calling it shows its view, ${app.resourceUri}`} />}{' '}
                    {t.description && <AgentText value={t.description} />}
                  </>
                ) : (
                  t.description
                )
              }
              action={
                call && headerProblem && excludes
                  ? {
                      ...call,
                      disabled: true,
                      title: 'Excluded: a client on streamable HTTP does not call a tool with an invalid x-mcp-header (SEP-2243)',
                    }
                  : call
              }
            >
              {headerProblem && (
                <p className="param-header-warning" data-testid="param-header-warning">
                  Invalid x-mcp-header: {headerProblem}.{' '}
                  {excludes
                    ? 'MCP 2026-07-28 has a client on streamable HTTP exclude this tool, so Parallax does not call it.'
                    : 'A client on streamable HTTP in MCP 2026-07-28 excludes this tool; on this connection it may be called.'}
                </p>
              )}
              {app && <AppToolMetadata ui={app} listed={resources} />}
              <Fields fields={Object.keys(t.inputSchema?.properties ?? {}).map((name) => ({ name, required: required.has(name) }))} />
              <JsonView value={t.inputSchema} openDepth={3} />
              {t.outputSchema !== undefined && (
                <>
                  <div className="section-title">Output schema</div>
                  <JsonView value={t.outputSchema} openDepth={1} />
                </>
              )}
            </CatalogItem>
          )
        })}
      </Section>
      <Section title="Prompts" items={prompts}>
        {prompts.map((p) => (
          <CatalogItem
            key={p.name}
            name={p.name}
            description={p.description}
            action={act('prompt', p.name, 'Get', 'Get it from a form of its arguments (prompts/get)')}
          >
            <Fields fields={(p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true, title: a.description }))} />
            <JsonView value={p} openDepth={2} />
          </CatalogItem>
        ))}
      </Section>
      <Section title="Resources" items={resources}>
        {resources.map((r) => (
          <CatalogItem
            key={r.uri}
            name={r.uri}
            description={
              isAppResource(r) ? (
                <>
                  <AppBadge title="An MCP App view: a tool that names it renders it" />{' '}
                  {`${r.title ?? r.name ?? ''}${r.mimeType ? ` · ${r.mimeType}` : ''}`}
                </>
              ) : (
                `${r.title ?? r.name ?? ''}${r.mimeType ? ` · ${r.mimeType}` : ''}`
              )
            }
            action={act('resource', r.uri, 'Read', 'Read it (resources/read)')}
          >
            {isAppResource(r) && <AppResourceMetadata meta={r._meta} />}
            <JsonView value={r} />
          </CatalogItem>
        ))}
      </Section>
      <Section title="Resource templates" items={templates}>
        {templates.map((r) => (
          <CatalogItem
            key={r.uriTemplate}
            name={r.uriTemplate}
            description={r.title ?? r.name}
            action={act('template', r.uriTemplate, 'Read…', 'Fill its parameters and read the resource they make')}
          >
            <JsonView value={r} />
          </CatalogItem>
        ))}
      </Section>
      {extensions}
    </div>
  )
}

/** A tool whose x-mcp-header declarations break SEP-2243. */
function ParamHeaderBadge({ excluded }: { excluded: boolean }) {
  return (
    <span
      className="badge warn"
      data-testid="param-header-badge"
      title="Its x-mcp-header declaration breaks SEP-2243: a client on streamable HTTP excludes the tool"
    >
      {excluded ? 'excluded: invalid x-mcp-header' : 'invalid x-mcp-header'}
    </span>
  )
}

/** One collapsible catalog entry: a name, a one-line description, details below. */
export function CatalogItem({
  name,
  description,
  open,
  action,
  children,
}: {
  name: string
  description?: React.ReactNode
  open?: boolean
  /** What the entry can be used for (Call, Get, Read): it leads to the call surface. */
  action?: { label: string; title: string; disabled?: boolean; run: () => void }
  children: React.ReactNode
}) {
  return (
    <details className="item" open={open}>
      <summary>
        <Name value={name} className="item-name" />
        <span className="item-desc">{typeof description === 'string' ? <AgentText value={description} /> : description}</span>
        {action && (
          <button
            className="btn small item-action"
            title={action.title}
            disabled={action.disabled}
            onClick={(e) => {
              e.preventDefault() // not a click on the summary: the entry stays as it is
              action.run()
            }}
          >
            {action.label}
          </button>
        )}
      </summary>
      <div className="item-body">{children}</div>
    </details>
  )
}

/** Argument names as chips, the required ones marked. */
function Fields({ fields }: { fields: { name: string; required: boolean; title?: string }[] }) {
  return (
    <div className="fields">
      {fields.map((f) => (
        <span key={f.name} className={`field${f.required ? ' required' : ''}`} title={f.title ?? (f.required ? 'required' : 'optional')}>
          <Name value={f.name} />
          {f.required ? '*' : ''}
        </span>
      ))}
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
