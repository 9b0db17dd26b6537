import { useState } from 'react'
import { visibleName, type CallEvent, type ValidationResult } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { command } from '../../../store/store'
import { CopyButton } from '../../../components/CopyButton'
import { DiffList } from '../../../components/DiffList'
import { clock, ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { SchemaForm, type PropertySchema } from './SchemaForm'

interface Callable {
  name: string
  inputSchema?: { properties?: Record<string, PropertySchema>; required?: string[] }
}

/**
 * Inspected calls: the hooks file of this target, a composer (a form from the input schema, or raw
 * JSON), and for each call the raw arguments, the hooked ones and their diff, both validations, the
 * hook's error, the context-echo verdict, lint warnings and the response.
 */
export function CallsPanel({ view }: { view: ConnectionView }) {
  const live = view.state === 'connected' || view.state === 'degraded'
  const callables: Callable[] =
    view.handshake?.protocol === 'a2a'
      ? view.handshake.skills.map((s) => ({ name: s.id }))
      : ((view.catalog['tools/list'] ?? []) as Callable[])
  const [selected, setSelected] = useState<number | undefined>()
  const call = selected !== undefined ? view.calls.find((c) => c.seq === selected) : view.calls.at(-1)
  return (
    <div className="panel calls-panel">
      <HooksBar view={view} />
      {callables.length > 0 ? (
        <Composer view={view} callables={callables} live={live} />
      ) : (
        <div className="muted">Nothing to call: {view.handshake ? 'no tools or skills are listed.' : 'connect first.'}</div>
      )}
      {view.calls.length > 1 && (
        <div className="call-history">
          {view.calls
            .slice(-12)
            .reverse()
            .map((c) => (
              <button key={c.seq} className={`btn small${c.seq === call?.seq ? ' on' : ''}`} onClick={() => setSelected(c.seq)}>
                {clock(c.ts)} {c.tool} <Verdict call={c} />
              </button>
            ))}
        </div>
      )}
      {call ? (
        <CallResult call={call} />
      ) : (
        <div className="empty">
          No calls yet. Pick a tool, fill its arguments, and call it: Parallax shows what the hook changed and what each version of the
          arguments is worth.
        </div>
      )}
    </div>
  )
}

function HooksBar({ view }: { view: ConnectionView }) {
  const [path, setPath] = useState(view.hooks?.source ?? '')
  const hooks = view.hooks
  const load = () => void command((api) => api.invoke('hooks.load', { connectionId: view.id, path }))
  return (
    <div className="hooks-bar" data-testid="hooks-bar">
      <span className="muted">Hooks</span>
      {hooks?.source && hooks.tools.length > 0 ? (
        <span>
          <span className="mono">{hooks.source.split('/').pop()}</span>{' '}
          <span className="muted">
            ({hooks.kind}) for {hooks.tools.join(', ')}
          </span>
        </span>
      ) : (
        <span className="muted">none: arguments are sent as typed</span>
      )}
      <input
        className="input mono"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="path to a hooks file (.json, .js, .ts), e.g. shared/demo/hooks/fill-buying-mode.json"
        aria-label="Hooks file"
        onKeyDown={(e) => e.key === 'Enter' && load()}
      />
      <button className="btn small" onClick={load} disabled={!path.trim()}>
        {hooks?.source === path ? 'Reload' : 'Load'}
      </button>
      {hooks?.source && (
        <button className="btn small ghost" onClick={() => void command((api) => api.invoke('hooks.clear', { connectionId: view.id }))}>
          Clear
        </button>
      )}
      {hooks?.error && <div className="error-text hooks-error">{hooks.error}</div>}
    </div>
  )
}

function Composer({ view, callables, live }: { view: ConnectionView; callables: Callable[]; live: boolean }) {
  const [tool, setTool] = useState(callables[0].name)
  const [mode, setMode] = useState<'form' | 'json'>('form')
  const [args, setArgs] = useState<Record<string, unknown>>({})
  const [json, setJson] = useState('{}')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const schema = callables.find((c) => c.name === tool)?.inputSchema
  const switchMode = (next: 'form' | 'json') => {
    if (next === 'json') setJson(JSON.stringify(args, null, 2))
    else {
      try {
        setArgs(JSON.parse(json))
      } catch {
        setError('fix the JSON before switching to the form')
        return
      }
    }
    setError(undefined)
    setMode(next)
  }
  const submit = async () => {
    setError(undefined)
    let value = args
    if (mode === 'json') {
      try {
        value = JSON.parse(json)
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('arguments are a JSON object')
      } catch (e) {
        setError((e as Error).message)
        return
      }
    }
    setBusy(true)
    await command((api) => api.invoke('tools.call', { connectionId: view.id, tool, arguments: value }))
    setBusy(false)
  }
  return (
    <div className="call-composer">
      <div className="composer-row">
        <select
          className="input"
          value={tool}
          onChange={(e) => (setTool(e.target.value), setArgs({}), setJson('{}'))}
          aria-label="Tool to call"
        >
          {callables.map((c) => (
            <option key={c.name} value={c.name}>
              {visibleName(c.name)}
            </option>
          ))}
        </select>
        <div className="segmented">
          <button className={mode === 'form' ? 'on' : ''} onClick={() => switchMode('form')}>
            Form
          </button>
          <button className={mode === 'json' ? 'on' : ''} onClick={() => switchMode('json')}>
            JSON
          </button>
        </div>
        <span className="spacer" />
        <button className="btn primary" onClick={() => void submit()} disabled={!live || busy}>
          {busy ? 'Calling…' : 'Call'}
        </button>
      </div>
      {mode === 'form' ? (
        <SchemaForm schema={schema} value={args} onChange={setArgs} />
      ) : (
        <textarea
          className="input composer-input mono"
          style={{ minHeight: 110 }}
          value={json}
          onChange={(e) => setJson(e.target.value)}
          aria-label="Raw arguments (JSON)"
        />
      )}
      {error && <div className="error-text">{error}</div>}
    </div>
  )
}

function Verdict({ call }: { call: CallEvent }) {
  const bad =
    call.hookError || call.validation.hooked.valid === false || (call.contextEcho?.present && !call.contextEcho.matchesRaw) || call.error
  return <span className={`dot ${bad ? 'bad' : 'ok'}`} />
}

function Badge({ result }: { result: ValidationResult }) {
  if (result.valid === null) return <span className="badge idle">no schema</span>
  return <span className={`badge ${result.valid ? 'ok' : 'bad'}`}>{result.valid ? 'valid' : `invalid · ${result.errors.length}`}</span>
}

function Errors({ result }: { result: ValidationResult }) {
  if (result.errors.length === 0) return null
  return (
    <ul className="validation-errors">
      {result.errors.map((e, i) => (
        <li key={i}>
          <span className="mono">{e.path}</span> {e.message}
        </li>
      ))}
    </ul>
  )
}

function CallResult({ call }: { call: CallEvent }) {
  const echo = call.contextEcho
  return (
    <div className="call-result" data-testid="call-result">
      <div className="call-title">
        <span className="mono">{call.tool}</span>
        <span className="muted">
          {clock(call.ts)}
          {call.hook ? ` · hook "${call.hook.name}" from ${call.hook.source.split('/').pop()}` : ' · no hook'}
          {call.durationMs !== undefined ? ` · ${ms(call.durationMs)}` : ''}
        </span>
        <span className="spacer" />
        <CopyButton value={() => call} label="Copy call" />
      </div>
      {call.hookError && (
        <div className="verdict bad" data-testid="hook-error">
          Hook error {call.hookError.code} (invalid request): {call.hookError.message}. Nothing was sent.
        </div>
      )}
      <div className="three-panes">
        <div className="card" data-testid="raw-pane">
          <h3>
            Raw <span className="spacer" />
            <Badge result={call.validation.raw} />
          </h3>
          <JsonView value={call.raw} openDepth={3} />
          <Errors result={call.validation.raw} />
        </div>
        <div className="card" data-testid="hooked-pane">
          <h3>
            Hooked {call.sent ? <span className="muted">(sent)</span> : <span className="muted">(not sent)</span>}
            <span className="spacer" />
            <Badge result={call.validation.hooked} />
          </h3>
          <JsonView value={call.hooked} openDepth={3} />
          <Errors result={call.validation.hooked} />
        </div>
        <div className="card" data-testid="diff-pane">
          <h3>Diff</h3>
          {call.diff.length === 0 ? (
            <div className="muted">{call.hook ? 'The hook changed nothing.' : 'No hook ran.'}</div>
          ) : (
            <DiffList diff={call.diff} />
          )}
        </div>
      </div>
      <div className="verdicts">
        {echo?.present && (
          <div className={`verdict ${echo.matchesRaw ? 'ok' : 'bad'}`} data-testid="context-echo">
            Context echo:{' '}
            {echo.matchesRaw
              ? 'the response echoed the raw context.'
              : echo.echoed
                ? `the response echoed a different context${echo.matchesHooked ? ' (the hooked one)' : ''}.`
                : 'the response did not echo the context.'}
            {echo.echoed && !echo.matchesRaw && <JsonView value={echo.returned} openDepth={2} />}
          </div>
        )}
        {call.lint.map((l) => (
          <div key={`${l.where}${l.path}`} className="verdict warn">
            Protocol field: {l.message}
          </div>
        ))}
        {call.outputValidation && (
          <div className={`verdict ${call.outputValidation.valid ? 'ok' : 'bad'}`}>
            Output schema:{' '}
            {call.outputValidation.valid
              ? 'structuredContent matches.'
              : call.outputValidation.errors.map((e) => `${e.path} ${e.message}`).join('; ')}
          </div>
        )}
        {call.error && <div className="verdict bad">Call failed: {call.error}</div>}
      </div>
      {call.sent && call.response !== undefined && (
        <div className="card">
          <h3>
            Response <span className="spacer" />
            <CopyButton value={() => call.response} />
          </h3>
          <JsonView value={call.response} openDepth={2} />
        </div>
      )}
    </div>
  )
}
