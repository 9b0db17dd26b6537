import {
  appResourceUi,
  appViewAllow,
  MCP_APP_MIME_TYPE,
  type AppCsp,
  type AppResourceUi,
  type AppToolUi,
} from '../../../../../shared/contract'
import { AgentText } from '../../../components/Name'

const WHO: Record<string, string> = {
  'model,app': 'the model and its view',
  model: 'the model only (its view may not call it)',
  app: 'its view only (hidden from the model)',
  '': 'nobody (an empty visibility)',
}

/** The badge an MCP App tool or view resource carries in the Catalog. */
export function AppBadge({ title }: { title: string }) {
  return (
    <span className="badge app-badge" title={title} data-testid="app-badge">
      App
    </span>
  )
}

/** Whether a listed resource is an MCP App view (a `ui://` resource, or of the App type). */
export function isAppResource(resource: { uri: string; mimeType?: string }): boolean {
  return resource.uri.startsWith('ui://') || resource.mimeType?.toLowerCase().replace(/\s+/g, '') === MCP_APP_MIME_TYPE
}

/**
 * An App tool's UI metadata: the view it renders in, who may call it, and the view's policy and
 * permissions as its resources/list entry declares them (the resource itself may declare others when read).
 */
export function AppToolMetadata({ ui, listed }: { ui: AppToolUi; listed: { uri: string; _meta?: unknown }[] }) {
  const entry = listed.find((r) => r.uri === ui.resourceUri)
  const declared = entry ? appResourceUi(entry._meta) : undefined
  return (
    <dl className="kv app-metadata" data-testid="app-metadata">
      <dt>View</dt>
      <dd className="mono">
        {ui.resourceUri}
        {ui.legacyKey && <span className="muted"> (named by the deprecated _meta["ui/resourceUri"])</span>}
      </dd>
      <dt>Visibility</dt>
      <dd>
        {WHO[[...ui.visibility].sort().reverse().join(',')] ?? ui.visibility.join(', ')}
        <span className="muted mono"> {JSON.stringify(ui.visibility)}</span>
      </dd>
      {declared && hasUi(declared.ui) ? (
        <UiSettings ui={declared.ui} where="as resources/list declares" />
      ) : (
        <>
          <dt>Policy</dt>
          <dd className="muted">
            {entry ? 'none declared in resources/list;' : 'the view is not in resources/list;'} what the resource declares is read with it
            (resources/read) when the view opens
          </dd>
        </>
      )}
      {[...ui.problems, ...(declared?.problems ?? [])].map((p) => (
        <dd key={p} className="verdict warn">
          <AgentText value={p} />
        </dd>
      ))}
    </dl>
  )
}

/** An App view resource's declared settings, from its resources/list entry. */
export function AppResourceMetadata({ meta }: { meta: unknown }) {
  const { ui, problems } = appResourceUi(meta)
  return (
    <dl className="kv app-metadata" data-testid="app-metadata">
      {hasUi(ui) ? (
        <UiSettings ui={ui} where="as resources/list declares" />
      ) : (
        <>
          <dt>Policy</dt>
          <dd className="muted">none declared in resources/list (the resource may declare its own when read)</dd>
        </>
      )}
      {problems.map((p) => (
        <dd key={p} className="verdict warn">
          <AgentText value={p} />
        </dd>
      ))}
    </dl>
  )
}

function UiSettings({ ui, where }: { ui: AppResourceUi; where: string }) {
  return (
    <>
      <dt>CSP</dt>
      <dd>
        <CspLists csp={ui.csp} /> <span className="muted">({where})</span>
      </dd>
      <dt>Permissions</dt>
      <dd className="mono">{appViewAllow(ui.permissions) || 'none'}</dd>
      {ui.prefersBorder !== undefined && (
        <>
          <dt>Border</dt>
          <dd>{ui.prefersBorder ? 'wants one' : 'wants none'}</dd>
        </>
      )}
      {ui.domain && (
        <>
          <dt>Domain</dt>
          <dd className="mono">
            {ui.domain} <span className="muted">(Parallax serves every view from its own origin)</span>
          </dd>
        </>
      )}
    </>
  )
}

const LISTS: [keyof AppCsp, string][] = [
  ['connectDomains', 'connect'],
  ['resourceDomains', 'resources'],
  ['frameDomains', 'frames'],
  ['baseUriDomains', 'base URI'],
]

function CspLists({ csp }: { csp: AppCsp | undefined }) {
  const given = LISTS.filter(([key]) => csp?.[key]?.length)
  if (given.length === 0) return <span>no origins: no network</span>
  return (
    <span className="mono">
      {given.map(([key, label]) => (
        <span key={key} className="app-csp-list">
          {label}: {csp![key]!.join(' ')}
        </span>
      ))}
    </span>
  )
}

function hasUi(ui: AppResourceUi): boolean {
  return ui.csp !== undefined || ui.permissions !== undefined || ui.prefersBorder !== undefined || ui.domain !== undefined
}
