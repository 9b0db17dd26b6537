import { useEffect, useState } from 'react'
import {
  contentText,
  elicitationDefaults,
  type ElicitField,
  type ElicitSchema,
  type ServerRequestAnswer,
  type ServerRequestEvent,
} from '../../../../../shared/contract'
import { elapsed } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { AgentText, Name } from '../../../components/Name'
import { openOutside, unopenable } from '../../../store/openOutside'
import { answerServerRequest } from '../../../store/actions'
import { FrameLink } from '../../../components/FrameLink'
import { pendingServerRequests, type ConnectionView } from '../../../store/connectionView'
import { CommandAnswer, PermissionAnswer } from './AcpRequestAnswers'
import './serverRequests.css'

/**
 * What the server asks and waits for the user to answer (docs/architecture.md, "Answering what servers
 * ask"): a model's reply (sampling) the user writes or rejects, a form (elicitation) with its defaults
 * filled in, or a URL to open. The oldest waiting request is shown; the others queue behind it.
 */
export function ServerRequestPanel({ view }: { view: ConnectionView }) {
  const pending = pendingServerRequests(view)
  if (pending.length === 0) return null
  const request = pending[0]
  return (
    <section className="server-request" data-testid="server-request" aria-label="The server asks">
      <header className="server-request-head">
        <strong>{TITLES[request.method] ?? <Name value={request.method} />}</strong>
        <Name value={request.method} className="mono muted" />
        {request.frameSeq !== undefined && (
          <FrameLink connectionId={view.id} seq={request.frameSeq} label="Frame" className="btn ghost small" title="The frame that asked" />
        )}
        <span className="spacer" />
        <Waiting request={request} />
        {pending.length > 1 && <span className="badge">{pending.length - 1} more waiting</span>}
      </header>
      {request.method === 'session/request_permission' ? (
        <PermissionAnswer key={request.seq} connectionId={view.id} request={request} />
      ) : request.method === 'terminal/create' ? (
        <CommandAnswer key={request.seq} connectionId={view.id} request={request} />
      ) : request.method === 'sampling/createMessage' ? (
        <SamplingAnswer key={request.seq} connectionId={view.id} request={request} />
      ) : (request.params as { mode?: string }).mode === 'url' ? (
        <UrlAnswer key={request.seq} connectionId={view.id} request={request} />
      ) : (
        <FormAnswer key={request.seq} connectionId={view.id} request={request} />
      )}
    </section>
  )
}

const TITLES: Record<string, string> = {
  'sampling/createMessage': 'The server asks for a model’s reply',
  'elicitation/create': 'The server asks you',
  'session/request_permission': 'The agent asks your permission',
  'terminal/create': 'The agent asks to run a command',
}

/** How long the request has waited, and how long Parallax waits before answering that nobody did. */
function Waiting({ request }: { request: ServerRequestEvent }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const waited = Math.max(0, now - request.ts)
  const left = request.waitLimitMs === undefined ? undefined : Math.max(0, request.waitLimitMs - waited)
  return (
    <span
      className="muted server-request-clock"
      data-testid="server-request-clock"
      title="The server’s own request timeout applies: when it stops waiting it sends notifications/cancelled, and this request goes away."
    >
      waiting <span className="mono">{elapsed(waited)}</span>
      {left !== undefined && (
        <>
          {' '}
          · answered “nobody answered” in <span className="mono">{elapsed(left)}</span> unless the{' '}
          {request.method.startsWith('session/') || request.method.startsWith('terminal/') ? 'agent' : 'server'} stops waiting first
        </>
      )}
    </span>
  )
}

interface SamplingParams {
  messages?: { role?: string; content?: unknown }[]
  systemPrompt?: string
  modelPreferences?: unknown
  tools?: unknown[]
  toolChoice?: unknown
  maxTokens?: number
  temperature?: number
  stopSequences?: string[]
  includeContext?: string
  metadata?: unknown
}

/** A sampling request: its messages, system prompt, preferences and tools; the user's reply (text, model, stop reason) or a rejection. */
function SamplingAnswer({ connectionId, request }: { connectionId: string; request: ServerRequestEvent }) {
  const params = (request.params ?? {}) as SamplingParams
  const [text, setText] = useState('')
  const [model, setModel] = useState('by-hand')
  const [stopReason, setStopReason] = useState('endTurn')
  const [busy, setBusy] = useState(false)
  const send = async (answer: ServerRequestAnswer) => {
    setBusy(true)
    await answerServerRequest(connectionId, request.id, answer)
    setBusy(false)
  }
  const settings = [
    params.maxTokens !== undefined && `max tokens ${params.maxTokens}`,
    params.temperature !== undefined && `temperature ${params.temperature}`,
    params.includeContext && `include context: ${params.includeContext}`,
    params.stopSequences?.length && `stop at ${params.stopSequences.map((s) => JSON.stringify(s)).join(', ')}`,
  ].filter(Boolean)
  return (
    <div className="server-request-body">
      {params.systemPrompt && (
        <div className="sampling-system">
          <span className="msg-label">system prompt</span>
          <AgentText value={params.systemPrompt} />
        </div>
      )}
      <ol className="sampling-messages" data-testid="sampling-messages">
        {(params.messages ?? []).map((message, i) => (
          <li key={i} className={`msg ${message.role === 'assistant' ? 'agent' : 'user'}`}>
            <span className="msg-label">{message.role ?? 'message'}</span>
            <AgentText value={contentText(message.content) || JSON.stringify(message.content)} className="msg-text" />
          </li>
        ))}
      </ol>
      {settings.length > 0 && <div className="muted">{settings.join(' · ')}</div>}
      {params.modelPreferences !== undefined && (
        <details>
          <summary>Model preferences</summary>
          <JsonView value={params.modelPreferences} openDepth={2} />
        </details>
      )}
      {params.tools !== undefined && (
        <details open>
          <summary>Tools the model may use ({params.tools.length})</summary>
          <JsonView value={params.tools} openDepth={1} />
        </details>
      )}
      <div className="form">
        <label htmlFor="sampling-reply">Reply</label>
        <textarea
          id="sampling-reply"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="What the model says back"
          autoFocus
        />
        <label htmlFor="sampling-model">Model</label>
        <input id="sampling-model" className="input mono" value={model} onChange={(e) => setModel(e.target.value)} />
        <label htmlFor="sampling-stop">Stop reason</label>
        <select id="sampling-stop" className="input" value={stopReason} onChange={(e) => setStopReason(e.target.value)}>
          <option value="endTurn">endTurn</option>
          <option value="stopSequence">stopSequence</option>
          <option value="maxTokens">maxTokens</option>
        </select>
      </div>
      <div className="server-request-actions">
        <button className="btn" disabled={busy} onClick={() => void send({ reject: 'the user rejected the sampling request' })}>
          Reject
        </button>
        <button
          className="btn primary"
          disabled={busy || !text.trim()}
          onClick={() =>
            void send({ result: { role: 'assistant', content: { type: 'text', text }, model: model || 'by-hand', stopReason } })
          }
        >
          Send reply
        </button>
      </div>
    </div>
  )
}

/** A form-mode elicitation: the requested schema as a form, its defaults filled in; accept, decline or cancel. */
function FormAnswer({ connectionId, request }: { connectionId: string; request: ServerRequestEvent }) {
  const params = (request.params ?? {}) as { message?: string; requestedSchema?: ElicitSchema }
  const schema = params.requestedSchema ?? {}
  const fields = Object.entries(schema.properties ?? {})
  const required = new Set(schema.required ?? [])
  const [values, setValues] = useState<Record<string, unknown>>(() => elicitationDefaults(schema))
  const [busy, setBusy] = useState(false)
  const send = async (answer: ServerRequestAnswer) => {
    setBusy(true)
    await answerServerRequest(connectionId, request.id, answer)
    setBusy(false)
  }
  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }))
  const accept = () => {
    const content = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ''))
    void send({ result: { action: 'accept', content } })
  }
  return (
    <div className="server-request-body">
      {params.message && <AgentText value={params.message} className="server-request-message" />}
      <form
        className="form elicit-form"
        onSubmit={(e) => {
          e.preventDefault()
          accept()
        }}
      >
        {fields.map(([name, field]) => (
          <Field key={name} name={name} field={field} required={required.has(name)} value={values[name]} onChange={(v) => set(name, v)} />
        ))}
      </form>
      <div className="server-request-actions">
        <button
          className="btn"
          disabled={busy}
          onClick={() => void send({ result: { action: 'cancel' } })}
          title="Dismiss without choosing"
        >
          Cancel
        </button>
        <button className="btn" disabled={busy} onClick={() => void send({ result: { action: 'decline' } })}>
          Decline
        </button>
        <button className="btn primary" disabled={busy} onClick={accept}>
          Accept
        </button>
      </div>
    </div>
  )
}

/** The choices of an enum field: its values and, where the schema names them, their titles. */
function choices(field: ElicitField | NonNullable<ElicitField['items']>): { value: unknown; title: string }[] {
  const titled = field.oneOf ?? field.anyOf
  if (titled) return titled.map((c) => ({ value: c.const, title: c.title ?? String(c.const) }))
  const names = 'enumNames' in field ? field.enumNames : undefined
  return (field.enum ?? []).map((value, i) => ({ value, title: names?.[i] ?? String(value) }))
}

function Field({
  name,
  field,
  required,
  value,
  onChange,
}: {
  name: string
  field: ElicitField
  required: boolean
  value: unknown
  onChange: (value: unknown) => void
}) {
  const id = `elicit-${name}`
  const label = (
    <label htmlFor={id} title={name}>
      {field.title ?? name}
      {required && <span className="required"> *</span>}
    </label>
  )
  const hint = field.description && <div className="hint">{field.description}</div>
  if (field.type === 'boolean')
    return (
      <>
        {label}
        <span>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {hint}
        </span>
      </>
    )
  if (field.type === 'array') {
    const options = field.items ? choices(field.items) : []
    const picked = Array.isArray(value) ? value : []
    return (
      <>
        {label}
        <span id={id} className="elicit-choices" role="group" aria-label={field.title ?? name}>
          {options.map((option) => (
            <label key={String(option.value)} className="elicit-choice">
              <input
                type="checkbox"
                checked={picked.includes(option.value)}
                onChange={(e) => onChange(e.target.checked ? [...picked, option.value] : picked.filter((p) => p !== option.value))}
              />{' '}
              {option.title}
            </label>
          ))}
          {hint}
        </span>
      </>
    )
  }
  const options = choices(field)
  if (options.length)
    return (
      <>
        {label}
        <span>
          <select
            id={id}
            className="input"
            value={value === undefined ? '' : String(value)}
            onChange={(e) => onChange(e.target.value === '' ? undefined : options.find((o) => String(o.value) === e.target.value)?.value)}
          >
            <option value="">—</option>
            {options.map((option) => (
              <option key={String(option.value)} value={String(option.value)}>
                {option.title}
              </option>
            ))}
          </select>
          {hint}
        </span>
      </>
    )
  const numeric = field.type === 'number' || field.type === 'integer'
  const type = numeric
    ? 'number'
    : field.format === 'date'
      ? 'date'
      : field.format === 'email'
        ? 'email'
        : field.format === 'uri'
          ? 'url'
          : 'text'
  return (
    <>
      {label}
      <span>
        <input
          id={id}
          className="input"
          type={type}
          value={value === undefined ? '' : String(value)}
          min={field.minimum}
          max={field.maximum}
          step={field.type === 'integer' ? 1 : 'any'}
          onChange={(e) => onChange(numeric ? (e.target.value === '' ? undefined : Number(e.target.value)) : e.target.value)}
        />
        {hint}
      </span>
    </>
  )
}

/** A URL-mode elicitation: the URL shown (never opened until the user clicks), and the user's answer. */
function UrlAnswer({ connectionId, request }: { connectionId: string; request: ServerRequestEvent }) {
  const params = (request.params ?? {}) as { message?: string; url?: string }
  const [busy, setBusy] = useState(false)
  const send = async (answer: ServerRequestAnswer) => {
    setBusy(true)
    await answerServerRequest(connectionId, request.id, answer)
    setBusy(false)
  }
  const url = typeof params.url === 'string' ? params.url : ''
  const refused = unopenable(url)
  return (
    <div className="server-request-body">
      {params.message && <AgentText value={params.message} className="server-request-message" />}
      <div className="elicit-url">
        <span className="mono" data-testid="elicit-url">
          <AgentText value={url} />
        </span>
        <button
          className="btn"
          disabled={!!refused}
          title={refused ?? 'Opens in a new window, without telling the page where it came from'}
          onClick={() => openOutside(url)}
        >
          Open URL
        </button>
      </div>
      {refused && <div className="hint bad-text">Parallax will not open it: {refused.replace(/^not opened: /, '')}.</div>}
      <div className="hint">
        Nothing is opened until you click. Accept says you agreed to go there; the server hears back when you are done.
      </div>
      <div className="server-request-actions">
        <button className="btn" disabled={busy} onClick={() => void send({ result: { action: 'cancel' } })}>
          Cancel
        </button>
        <button className="btn" disabled={busy} onClick={() => void send({ result: { action: 'decline' } })}>
          Decline
        </button>
        <button className="btn primary" disabled={busy} onClick={() => void send({ result: { action: 'accept' } })}>
          Accept
        </button>
      </div>
    </div>
  )
}
