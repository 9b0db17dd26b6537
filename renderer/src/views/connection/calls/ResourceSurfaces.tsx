import { useState, type ReactNode } from 'react'
import { visibleName } from '../../../../../shared/contract'
import { timeOfDay } from '../../../components/format'
import { ResourceContents } from '../../../components/McpContent'
import { AgentText, Name } from '../../../components/Name'
import { keepDraft, pickEntry, sendRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import { latestExchange, type Exchange } from '../../../store/requests'
import type { CallSurface, Draft } from '../../../store/store'
import type { Resource, Template } from '../catalog/catalogEntries'
import { readLinked } from './act'
import { InFlightList } from './InFlight'
import { SchemaForm, type JsonSchema } from './SchemaForm'
import { capabilities, completer, CompletionNote, ExchangeView, isLive } from './surfaceParts'
import { expandTemplate, templateVariables } from './uriTemplate'

/** Read a resource: its contents by MIME type; subscribe to it, when the server offers that, and see its updates. */
export function ResourceSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const listed = (view.catalog['resources/list'] ?? []) as Resource[]
  const picked = surface.picked.resource
  // A resource a link pointed to may not be listed: it is offered all the same.
  const resources = picked && !listed.some((r) => r.uri === picked) ? [{ uri: picked, name: '(from a link)' }, ...listed] : listed
  const resource = resources.find((r) => r.uri === picked) ?? resources[0]
  const [busy, read] = useReader(view)
  if (!resource) return <div className="muted">No resources are listed.</div>
  const exchange = latestExchange(view.requests, 'resources/read', resource.uri)
  return (
    <ReadForm
      view={view}
      label="Resource to read"
      entries={resources}
      current={resource}
      onPick={(uri) => pickEntry(view.targetId, 'resource', uri)}
      actions={<SubscribeButton view={view} uri={resource.uri} />}
      busy={busy}
      disabled={!isLive(view) || busy}
      onRead={() => void read(resource.uri)}
      exchange={exchange}
      empty="Not read yet: Read it. Its contents show here by their MIME type."
    >
      <UpdatedNotice view={view} uri={resource.uri} exchange={exchange} onRead={() => void read(resource.uri)} />
    </ReadForm>
  )
}

/** Fill a resource template's parameters (completed by the server) and read the resource they make. */
export function TemplateSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const templates = (view.catalog['resources/templates/list'] ?? []) as Template[]
  const template = templates.find((t) => t.uriTemplate === surface.picked.template) ?? templates[0]
  const [busy, read] = useReader(view)
  if (!template) return <div className="muted">No resource templates are listed.</div>
  const key = `template:${template.uriTemplate}`
  const draft: Draft = surface.drafts[key] ?? { values: {} }
  const variables = templateVariables(template.uriTemplate)
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(variables.map((v) => [v, { type: 'string' }])),
    required: variables,
  }
  const uri = expandTemplate(template.uriTemplate, draft.values)
  const missing = variables.filter((v) => typeof draft.values[v] !== 'string' || draft.values[v] === '')
  const exchange = draft.uri !== undefined ? latestExchange(view.requests, 'resources/read', draft.uri) : undefined
  return (
    <ReadForm
      view={view}
      label="Resource template"
      entries={templates.map((t) => ({ ...t, uri: t.uriTemplate }))}
      current={{ ...template, uri: template.uriTemplate }}
      onPick={(uriTemplate) => pickEntry(view.targetId, 'template', uriTemplate)}
      busy={busy}
      disabled={!isLive(view) || busy || missing.length > 0}
      title={missing.length ? `Fill ${missing.join(', ')} first` : `resources/read ${uri}`}
      onRead={() => {
        keepDraft(view.targetId, key, { ...draft, uri })
        void read(uri)
      }}
      exchange={exchange}
      empty="Fill the parameters and Read: the resource they make shows here by its MIME type."
    >
      <SchemaForm
        key={key}
        schema={schema}
        value={draft.values}
        onChange={(values) => keepDraft(view.targetId, key, { ...draft, values })}
        complete={completer(view, { type: 'ref/resource', uri: template.uriTemplate })}
        idPrefix="param-"
      />
      <CompletionNote view={view} any={variables.length > 0} />
      <div className="expanded-uri">
        <span className="muted">URI</span>{' '}
        <span data-testid="expanded-uri">
          <Name value={uri} className="mono" />
        </span>
      </div>
    </ReadForm>
  )
}

/** Something to read, listed or made from a template (its URI then the template's). */
type Readable = Pick<Resource, 'uri' | 'name' | 'title' | 'mimeType' | 'description'>

/**
 * The form a resource and a template share: which one to read (by URI, with its name), Read, and its MIME
 * type and description; below them, what this one adds (`children`: a template's parameters and the URI they
 * make, a resource's updates). Then the requests in flight, and what was read, shown by its MIME type.
 */
function ReadForm(props: {
  view: ConnectionView
  label: string
  entries: Readable[]
  current: Readable
  onPick: (uri: string) => void
  actions?: ReactNode
  busy: boolean
  disabled: boolean
  title?: string
  onRead: () => void
  exchange: Exchange | undefined
  empty: string
  children: ReactNode
}) {
  const { view, current } = props
  return (
    <>
      <div className="call-composer">
        <div className="composer-row">
          <select className="input" value={current.uri} onChange={(e) => props.onPick(e.target.value)} aria-label={props.label}>
            {props.entries.map((r) => (
              <option key={r.uri} value={r.uri}>
                {visibleName(r.uri)}
                {r.name || r.title ? ` — ${visibleName(r.title ?? r.name ?? '')}` : ''}
              </option>
            ))}
          </select>
          <span className="spacer" />
          {props.actions}
          <button className="btn primary" onClick={props.onRead} disabled={props.disabled} title={props.title}>
            {props.busy ? 'Reading…' : 'Read'}
          </button>
        </div>
        {(current.description || current.mimeType) && (
          <AgentText value={[current.mimeType, current.description].filter(Boolean).join(' — ')} className="muted entry-description" />
        )}
        {props.children}
      </div>
      <InFlightList view={view} />
      <ExchangeView
        exchange={props.exchange}
        empty={props.empty}
        render={(result) => <ResourceContents contents={(result as { contents?: unknown }).contents} />}
      />
    </>
  )
}

/** Reads a resource on the connection: busy until its answer comes. */
function useReader(view: ConnectionView): [busy: boolean, read: (uri: string) => Promise<void>] {
  const [busy, setBusy] = useState(false)
  const read = async (uri: string) => {
    setBusy(true)
    await sendRequest(view.id, 'resources/read', { uri })
    setBusy(false)
  }
  return [busy, read]
}

/** Subscribe to a resource's updates, or stop; offered only when the server advertises `resources.subscribe`. */
function SubscribeButton({ view, uri }: { view: ConnectionView; uri: string }) {
  const offered = (capabilities(view).resources as { subscribe?: unknown } | undefined)?.subscribe === true
  const subscription = view.requests.subscriptions[uri]
  if (!offered)
    return (
      <span className="muted" title="The server does not advertise resources.subscribe">
        no subscriptions
      </span>
    )
  const busy = subscription?.state === 'subscribing' || subscription?.state === 'unsubscribing'
  return (
    <button
      className={`btn${subscription?.state === 'subscribed' ? ' on' : ''}`}
      disabled={!isLive(view) || busy}
      onClick={() => void sendRequest(view.id, subscription ? 'resources/unsubscribe' : 'resources/subscribe', { uri })}
      title={
        subscription ? 'resources/unsubscribe' : 'resources/subscribe: the server sends notifications/resources/updated when it changes'
      }
    >
      {subscription?.state === 'subscribed' ? 'Unsubscribe' : busy ? `${subscription.state}…` : 'Subscribe'}
    </button>
  )
}

/** A subscribed resource the server updated since it was last read: says so, and offers to read it again. */
function UpdatedNotice({ view, uri, exchange, onRead }: { view: ConnectionView; uri: string; exchange?: Exchange; onRead: () => void }) {
  const subscription = view.requests.subscriptions[uri]
  if (!subscription?.lastUpdate) return null
  const readAt = exchange?.answer?.ts ?? 0
  if (subscription.lastUpdate <= readAt) return null
  return (
    <div className="verdict warn updated-notice" data-testid="updated-notice">
      The server says it changed (notifications/resources/updated, last at {timeOfDay(subscription.lastUpdate)}), since you{' '}
      {exchange ? 'read it' : 'subscribed'}.{' '}
      <button className="btn small" onClick={onRead}>
        Read again
      </button>
    </div>
  )
}

/** The resources subscribed to on this connection, with the updates each got as they arrived. */
export function SubscriptionsList({ view }: { view: ConnectionView }) {
  const subscriptions = Object.values(view.requests.subscriptions)
  if (subscriptions.length === 0) return null
  return (
    <div className="card subscriptions" data-testid="subscriptions">
      <h3>Subscriptions</h3>
      {subscriptions.map((s) => (
        <div key={s.uri} className="subscription" data-uri={s.uri}>
          <Name value={s.uri} className="mono" />
          <span className={`badge ${s.state === 'subscribed' ? 'ok' : 'busy'}`}>{s.state}</span>
          <span className="muted" data-testid="updates">
            {s.updates} update{s.updates === 1 ? '' : 's'}
            {s.lastUpdate ? `, last at ${timeOfDay(s.lastUpdate)}` : ''}
          </span>
          <span className="spacer" />
          <button className="btn small" onClick={() => readLinked(view, s.uri)} disabled={!isLive(view)}>
            Read again
          </button>
          <button
            className="btn small ghost"
            onClick={() => void sendRequest(view.id, 'resources/unsubscribe', { uri: s.uri })}
            disabled={!isLive(view) || s.state !== 'subscribed'}
          >
            Unsubscribe
          </button>
        </div>
      ))}
    </div>
  )
}
