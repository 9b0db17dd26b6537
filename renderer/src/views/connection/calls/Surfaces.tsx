import { useState } from 'react'
import { asksProgress, PROGRESS_METHODS, visibleName, type ConversationEvent } from '../../../../../shared/contract'
import { clock, timeOfDay } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { PromptMessages, ResourceContents } from '../../../components/McpContent'
import { AgentText, Name } from '../../../components/Name'
import { completeArgument, keepDraft, pickEntry, sendRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import { latestExchange, type Exchange } from '../../../store/requests'
import type { CallSurface, Draft } from '../../../store/store'
import { parseObject, readLinked } from './act'
import { InFlightList } from './InFlight'
import { SchemaForm, type Completer, type JsonSchema } from './SchemaForm'
import { expandTemplate, templateVariables } from './uriTemplate'
import type { Prompt, Resource, Template } from '../catalog/catalogEntries'

function capabilities(view: ConnectionView): Record<string, unknown> {
  return view.handshake?.protocol === 'mcp' ? view.handshake.serverCapabilities : {}
}

function isLive(view: ConnectionView): boolean {
  return view.state === 'connected' || view.state === 'degraded'
}

/** Suggestions from the server for an argument of `ref` (a prompt, a resource template), when it advertises `completions`. */
function completer(view: ConnectionView, ref: Record<string, unknown>): Completer | undefined {
  if (!capabilities(view).completions) return undefined
  return async (argument, value, others) => {
    const strings = Object.fromEntries(Object.entries(others).filter(([k, v]) => k !== argument && typeof v === 'string'))
    const answer = await completeArgument(view.id, {
      ref,
      argument: { name: argument, value },
      ...(Object.keys(strings).length > 0 && { context: { arguments: strings } }),
    })
    if (answer?.outcome !== 'result') return undefined
    const completion = (answer.result.completion ?? {}) as { values?: unknown; total?: unknown; hasMore?: unknown }
    return {
      values: Array.isArray(completion.values) ? completion.values.map(String) : [],
      ...(typeof completion.total === 'number' && { total: completion.total }),
      ...(completion.hasMore === true && { hasMore: true }),
    }
  }
}

/** What the surface says about completion: offered by the server, or why not. */
function CompletionNote({ view, any }: { view: ConnectionView; any: boolean }) {
  if (!any) return null
  return (
    <div className="muted completion-note">
      {capabilities(view).completions
        ? 'The server offers completions (completion/complete): suggestions come as you type.'
        : 'The server does not advertise "completions": no suggestions.'}
    </div>
  )
}

/** Get a prompt: a form of its arguments (required ones marked, completed by the server), and its messages as a conversation. */
export function PromptSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const prompts = (view.catalog['prompts/list'] ?? []) as Prompt[]
  const prompt = prompts.find((p) => p.name === surface.picked.prompt) ?? prompts[0]
  const [busy, setBusy] = useState(false)
  if (!prompt) return <div className="muted">No prompts are listed.</div>
  const key = `prompt:${prompt.name}`
  const draft: Draft = surface.drafts[key] ?? { values: {} }
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, { type: 'string', description: a.description }])),
    required: (prompt.arguments ?? []).filter((a) => a.required).map((a) => a.name),
  }
  const missing = schema.required!.filter((name) => typeof draft.values[name] !== 'string')
  const get = async () => {
    setBusy(true)
    await sendRequest(view.id, 'prompts/get', { name: prompt.name, arguments: draft.values })
    setBusy(false)
  }
  const exchange = latestExchange(view.requests, 'prompts/get', prompt.name)
  return (
    <>
      <div className="call-composer">
        <div className="composer-row">
          <select
            className="input"
            value={prompt.name}
            onChange={(e) => pickEntry(view.targetId, 'prompt', e.target.value)}
            aria-label="Prompt to get"
          >
            {prompts.map((p) => (
              <option key={p.name} value={p.name}>
                {visibleName(p.name)}
              </option>
            ))}
          </select>
          <span className="spacer" />
          <button
            className="btn primary"
            onClick={() => void get()}
            disabled={!isLive(view) || busy}
            title={missing.length ? `Required: ${missing.join(', ')} (the server may refuse without them)` : 'prompts/get'}
          >
            {busy ? 'Getting…' : 'Get'}
          </button>
        </div>
        {(prompt.title || prompt.description) && (
          <AgentText value={[prompt.title, prompt.description].filter(Boolean).join(' — ')} className="muted entry-description" />
        )}
        <SchemaForm
          key={key}
          schema={schema}
          value={draft.values}
          onChange={(values) => keepDraft(view.targetId, key, { ...draft, values })}
          complete={completer(view, { type: 'ref/prompt', name: prompt.name })}
        />
        <CompletionNote view={view} any={(prompt.arguments ?? []).length > 0} />
      </div>
      <InFlightList view={view} />
      <ExchangeView
        exchange={exchange}
        empty="Not got yet: fill its arguments and Get it. Its messages show here as a conversation."
        render={(result) => <PromptMessages result={result} onRead={(uri) => readLinked(view, uri)} />}
      />
    </>
  )
}

/** Read a resource: its contents by MIME type; subscribe to it, when the server offers that, and see its updates. */
export function ResourceSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const listed = (view.catalog['resources/list'] ?? []) as Resource[]
  const picked = surface.picked.resource
  // A resource a link pointed to may not be listed: it is offered all the same.
  const resources = picked && !listed.some((r) => r.uri === picked) ? [{ uri: picked, name: '(from a link)' }, ...listed] : listed
  const resource = resources.find((r) => r.uri === picked) ?? resources[0]
  const [busy, setBusy] = useState(false)
  if (!resource) return <div className="muted">No resources are listed.</div>
  const read = async () => {
    setBusy(true)
    await sendRequest(view.id, 'resources/read', { uri: resource.uri })
    setBusy(false)
  }
  const exchange = latestExchange(view.requests, 'resources/read', resource.uri)
  return (
    <>
      <div className="call-composer">
        <div className="composer-row">
          <select
            className="input"
            value={resource.uri}
            onChange={(e) => pickEntry(view.targetId, 'resource', e.target.value)}
            aria-label="Resource to read"
          >
            {resources.map((r) => (
              <option key={r.uri} value={r.uri}>
                {visibleName(r.uri)}
                {r.name || r.title ? ` — ${visibleName(r.title ?? r.name ?? '')}` : ''}
              </option>
            ))}
          </select>
          <span className="spacer" />
          <SubscribeButton view={view} uri={resource.uri} />
          <button className="btn primary" onClick={() => void read()} disabled={!isLive(view) || busy}>
            {busy ? 'Reading…' : 'Read'}
          </button>
        </div>
        {(resource.description || resource.mimeType) && (
          <AgentText value={[resource.mimeType, resource.description].filter(Boolean).join(' — ')} className="muted entry-description" />
        )}
        <UpdatedNotice view={view} uri={resource.uri} exchange={exchange} onRead={() => void read()} />
      </div>
      <InFlightList view={view} />
      <ExchangeView
        exchange={exchange}
        empty="Not read yet: Read it. Its contents show here by their MIME type."
        render={(result) => <ResourceContents contents={(result as { contents?: unknown }).contents} />}
      />
    </>
  )
}

/** Fill a resource template's parameters (completed by the server) and read the resource they make. */
export function TemplateSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const templates = (view.catalog['resources/templates/list'] ?? []) as Template[]
  const template = templates.find((t) => t.uriTemplate === surface.picked.template) ?? templates[0]
  const [busy, setBusy] = useState(false)
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
  const read = async () => {
    setBusy(true)
    keepDraft(view.targetId, key, { ...draft, uri })
    await sendRequest(view.id, 'resources/read', { uri })
    setBusy(false)
  }
  const exchange = draft.uri !== undefined ? latestExchange(view.requests, 'resources/read', draft.uri) : undefined
  return (
    <>
      <div className="call-composer">
        <div className="composer-row">
          <select
            className="input"
            value={template.uriTemplate}
            onChange={(e) => pickEntry(view.targetId, 'template', e.target.value)}
            aria-label="Resource template"
          >
            {templates.map((t) => (
              <option key={t.uriTemplate} value={t.uriTemplate}>
                {visibleName(t.uriTemplate)}
                {t.name || t.title ? ` — ${visibleName(t.title ?? t.name ?? '')}` : ''}
              </option>
            ))}
          </select>
          <span className="spacer" />
          <button
            className="btn primary"
            onClick={() => void read()}
            disabled={!isLive(view) || busy || missing.length > 0}
            title={missing.length ? `Fill ${missing.join(', ')} first` : `resources/read ${uri}`}
          >
            {busy ? 'Reading…' : 'Read'}
          </button>
        </div>
        {(template.description || template.mimeType) && (
          <AgentText value={[template.mimeType, template.description].filter(Boolean).join(' — ')} className="muted entry-description" />
        )}
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
      </div>
      <InFlightList view={view} />
      <ExchangeView
        exchange={exchange}
        empty="Fill the parameters and Read: the resource they make shows here by its MIME type."
        render={(result) => <ResourceContents contents={(result as { contents?: unknown }).contents} />}
      />
    </>
  )
}

/** Methods a client sends, offered as the method field's suggestions (any other may be typed). */
const METHODS = [
  'ping',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'tasks/list',
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
]

/** Any request by method, with its params as JSON (checked against the MCP schema for the method before it is sent), and its answer. */
export function RequestSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const method = surface.picked.request ?? 'ping'
  const key = `request:${method}`
  const draft: Draft = surface.drafts[key] ?? { values: {}, json: '{}' }
  const progress = asksProgress(method, draft.progress)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const send = async () => {
    setError(undefined)
    let params: Record<string, unknown>
    try {
      params = parseObject(draft.json ?? '{}', 'params')
    } catch (e) {
      setError((e as Error).message)
      return
    }
    setBusy(true)
    const answer = await sendRequest(view.id, method, Object.keys(params).length ? params : undefined, progress)
    setBusy(false)
    if (answer?.requestId !== undefined) keepDraft(view.targetId, key, { ...draft, requestId: answer.requestId })
  }
  const exchange = draft.requestId !== undefined ? view.requests.exchanges[String(draft.requestId)] : undefined
  return (
    <>
      <div className="call-composer">
        <div className="composer-row">
          <input
            className="input mono"
            list="mcp-methods"
            value={method}
            onChange={(e) => pickEntry(view.targetId, 'request', e.target.value.trim())}
            aria-label="Method"
            style={{ minWidth: 260 }}
          />
          <datalist id="mcp-methods">
            {METHODS.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <span className="muted">any MCP request; its params are checked against the MCP schema for the method before it is sent</span>
          <span className="spacer" />
          <ProgressToggle on={progress} onChange={(on) => keepDraft(view.targetId, key, { ...draft, progress: on })} />
          <button className="btn primary" onClick={() => void send()} disabled={!isLive(view) || busy || !method}>
            {busy ? 'Sending…' : 'Send'}
          </button>
        </div>
        <textarea
          className="input composer-input mono"
          style={{ minHeight: 90 }}
          value={draft.json ?? '{}'}
          onChange={(e) => keepDraft(view.targetId, key, { ...draft, json: e.target.value })}
          aria-label="Params (JSON)"
        />
        {error && <div className="error-text">{error}</div>}
      </div>
      <InFlightList view={view} />
      <ExchangeView
        exchange={exchange}
        empty="Nothing sent yet. The answer shows here: the result, or the server's error with its code."
        render={(result) => <JsonView value={result} openDepth={4} />}
      />
    </>
  )
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

/** One exchange's answer: the result rendered as what it is, the server's JSON-RPC error, or why none came. */
function ExchangeView({ exchange, empty, render }: { exchange?: Exchange; empty: string; render: (result: unknown) => React.ReactNode }) {
  const [raw, setRaw] = useState(false)
  if (!exchange) return <div className="empty">{empty}</div>
  const answer = exchange.answer?.message
  const meta = answer?.metadata
  return (
    <div className="card exchange" data-testid="exchange">
      <h3>
        <span className="mono">{exchange.asked.message.content}</span>
        <span className="spacer" />
        <span className="muted">
          {clock(exchange.asked.ts)}
          {exchange.answer && ` · ${Math.round(exchange.answer.ts - exchange.asked.ts)} ms`}
        </span>
        {meta?.kind === 'result' && (
          <button className="btn small ghost" onClick={() => setRaw(!raw)}>
            {raw ? 'As content' : 'As JSON'}
          </button>
        )}
      </h3>
      {!answer ? (
        <div className="muted">Waiting for the answer…</div>
      ) : meta?.kind === 'result' ? (
        raw ? (
          <JsonView value={meta.data} openDepth={3} />
        ) : (
          render(meta.data)
        )
      ) : (
        <ErrorAnswer answer={exchange.answer!} />
      )}
    </div>
  )
}

function ErrorAnswer({ answer }: { answer: ConversationEvent }) {
  const meta = answer.message.metadata ?? { kind: 'error', timestampSource: 'observed' }
  const noAnswer = typeof meta.noAnswer === 'string' ? meta.noAnswer : undefined
  return (
    <div className="verdict bad" data-testid="error-answer">
      {noAnswer ? `No answer (${noAnswer}): ` : `JSON-RPC error ${String(meta.code)}: `}
      <AgentText value={answer.message.content} />
      {meta.data !== undefined && <JsonView value={meta.data} openDepth={2} />}
    </div>
  )
}

/** Whether a request asks for progress: a token in `_meta` the server may report against, each report restarting the timeout. */
function ProgressToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <label
      className="muted"
      style={{ display: 'inline-flex', gap: 4, alignItems: 'center', whiteSpace: 'nowrap' }}
      title={`Sends a progress token (params._meta.progressToken): the server may report progress, and each report restarts the request timeout. Asked by default for ${PROGRESS_METHODS.join(', ')} only.`}
    >
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} />
      ask for progress
    </label>
  )
}
