import { TaskToggle, taskSupport } from './TaskToggle'
import { useState } from 'react'
import { appToolUi, visibleName, type CallEvent, type ValidationResult } from '../../../../../shared/contract'
import type { ConnectionView } from '../../../store/connectionView'
import { command, useStore, type CallSurface, type Draft, type EntryKind } from '../../../store/store'
import { keepDraft, pickEntry, pickEntryKind } from '../../../store/actions'
import { openAppView, settleAppView } from '../../../store/appActions'
import { parseObject, readLinked } from './act'
import { AdcpFindings } from '../../../components/AdcpFindings'
import { CopyButton } from '../../../components/CopyButton'
import { DiffList } from '../../../components/DiffList'
import { clock, ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { ToolResult } from '../../../components/McpContent'
import { AgentText, Name } from '../../../components/Name'
import { HooksBar } from './HooksBar'
import { InFlightList } from './InFlight'
import { SchemaForm, schemaDefaults, type JsonSchema } from './SchemaForm'
import { PromptSurface } from './PromptSurface'
import { RequestSurface } from './RequestSurface'
import { ResourceSurface, SubscriptionsList, TemplateSurface } from './ResourceSurfaces'
import './calls.css'

interface Callable {
  name: string
  execution?: { taskSupport?: unknown }
  title?: string
  description?: string
  inputSchema?: JsonSchema
}

const NO_SURFACE: CallSurface = { kind: 'tool', picked: {}, drafts: {} }

const KIND_LABELS: Record<EntryKind, string> = {
  tool: 'Tools',
  prompt: 'Prompts',
  resource: 'Resources',
  template: 'Templates',
  request: 'Any request',
}

/**
 * One place to act on what the server offers (each Catalog entry's Call, Get or Read lands here): call a
 * tool (through its hooks, raw vs hooked), get a prompt, read a resource or a template filled in,
 * subscribe, or send any request; what is in flight (its progress, Cancel); and the answer, readable.
 */
export function CallsPanel({ view }: { view: ConnectionView }) {
  const surface = useStore((s) => s.callSurfaces[view.targetId]) ?? NO_SURFACE
  const a2a = view.protocol === 'a2a'
  const counts: Partial<Record<EntryKind, number>> = a2a
    ? { tool: view.handshake?.protocol === 'a2a' ? view.handshake.skills.length : 0 }
    : {
        tool: view.catalog['tools/list']?.length ?? 0,
        prompt: view.catalog['prompts/list']?.length ?? 0,
        resource: view.catalog['resources/list']?.length ?? 0,
        template: view.catalog['resources/templates/list']?.length ?? 0,
        request: undefined,
      }
  const kinds = (Object.keys(counts) as EntryKind[]).filter((k) => k === 'request' || counts[k] || k === surface.kind)
  const kind = kinds.includes(surface.kind) ? surface.kind : (kinds.find((k) => counts[k]) ?? kinds[0] ?? 'tool')
  return (
    <div className="panel calls-panel" data-testid="call-surface">
      {!a2a && (
        <div className="surface-kinds segmented" role="tablist" aria-label="What to act on">
          {kinds.map((k) => (
            <button
              key={k}
              role="tab"
              aria-selected={k === kind}
              className={k === kind ? 'on' : ''}
              onClick={() => pickEntryKind(view.targetId, k)}
            >
              {KIND_LABELS[k]}
              {counts[k] !== undefined && <span className="count">{counts[k]}</span>}
            </button>
          ))}
        </div>
      )}
      {kind === 'tool' && <ToolSurface view={view} surface={surface} />}
      {kind === 'prompt' && <PromptSurface view={view} surface={surface} />}
      {kind === 'resource' && <ResourceSurface view={view} surface={surface} />}
      {kind === 'template' && <TemplateSurface view={view} surface={surface} />}
      {kind === 'request' && <RequestSurface view={view} surface={surface} />}
      {(kind === 'resource' || kind === 'template') && <SubscriptionsList view={view} />}
    </div>
  )
}

function ToolSurface({ view, surface }: { view: ConnectionView; surface: CallSurface }) {
  const live = view.state === 'connected' || view.state === 'degraded'
  const callables: Callable[] =
    view.handshake?.protocol === 'a2a'
      ? view.handshake.skills.map((s) => ({ name: s.id, description: s.description }))
      : ((view.catalog['tools/list'] ?? []) as Callable[])
  const [selected, setSelected] = useState<number | undefined>()
  const call = selected !== undefined ? view.calls.find((c) => c.seq === selected) : view.calls.at(-1)
  return (
    <>
      <HooksBar view={view} />
      {callables.length > 0 ? (
        <Composer view={view} surface={surface} callables={callables} live={live} />
      ) : (
        <div className="muted">Nothing to call: {view.handshake ? 'no tools or skills are listed.' : 'connect first.'}</div>
      )}
      <InFlightList view={view} />
      {view.calls.length > 1 && (
        <div className="call-history">
          {view.calls
            .slice(-12)
            .reverse()
            .map((c) => (
              <button key={c.seq} className={`btn small${c.seq === call?.seq ? ' on' : ''}`} onClick={() => setSelected(c.seq)}>
                {clock(c.ts)} <Name value={c.tool} />
                {c.view && <span className="muted"> · by its view</span>} <Verdict call={c} />
              </button>
            ))}
        </div>
      )}
      {call ? (
        <CallResult call={call} onRead={view.protocol === 'mcp' ? (uri) => readLinked(view, uri) : undefined} />
      ) : (
        <div className="empty">
          No calls yet. Pick a tool, fill its arguments, and call it: Parallax shows what the hook changed and what each version of the
          arguments is worth.
        </div>
      )}
    </>
  )
}

/**
 * A tool's arguments, from a form generated from its input schema (its defaults filled in) or as raw JSON;
 * what is typed for each tool is kept while the user switches between them.
 */
function Composer({
  view,
  surface,
  callables,
  live,
}: {
  view: ConnectionView
  surface: CallSurface
  callables: Callable[]
  live: boolean
}) {
  const tool = callables.find((c) => c.name === surface.picked.tool) ?? callables[0]
  const key = `tool:${tool.name}`
  const schema = tool.inputSchema
  const draft: Draft = surface.drafts[key] ?? { values: schemaDefaults(schema), mode: 'form' }
  const mode = draft.mode ?? 'form'
  const json = draft.json ?? JSON.stringify(draft.values, null, 2)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [asTask, setAsTask] = useState(false)
  const tasks = taskSupport(view, tool)
  const keep = (change: Partial<Draft>) => keepDraft(view.targetId, key, { ...draft, ...change })
  const switchMode = (next: 'form' | 'json') => {
    if (next === mode) return
    if (next === 'json') return (setError(undefined), keep({ mode: next, json: JSON.stringify(draft.values, null, 2) }))
    try {
      const values = parseObject(json, 'arguments')
      setError(undefined)
      keep({ mode: next, values, json: undefined })
    } catch {
      setError('fix the JSON before switching to the form')
    }
  }
  const submit = async () => {
    setError(undefined)
    let value = draft.values
    if (mode === 'json') {
      try {
        value = parseObject(json, 'arguments')
      } catch (e) {
        setError((e as Error).message)
        return
      }
    }
    setBusy(true)
    // An MCP App tool: its view opens on the page now, and is given the call's input and result when they come.
    const app = view.protocol === 'mcp' ? appToolUi(tool) : undefined
    const key = app && openAppView(view.id, tool.name, app.resourceUri, value)
    const report = await command((api) =>
      api.invoke('tools.call', {
        connectionId: view.id,
        tool: tool.name,
        arguments: value,
        task: tasks === 'required' || (tasks !== undefined && asTask),
      }),
    )
    if (key) settleAppView(view.id, key, report)
    setBusy(false)
  }
  return (
    <div className="call-composer">
      <div className="composer-row">
        <select
          className="input"
          value={tool.name}
          onChange={(e) => (setError(undefined), pickEntry(view.targetId, 'tool', e.target.value))}
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
        <button
          className="btn small ghost"
          onClick={() => keep({ values: schemaDefaults(schema), json: JSON.stringify(schemaDefaults(schema), null, 2) })}
          title="Start again from the schema's defaults"
        >
          Reset
        </button>
        {tasks && <TaskToggle targetId={view.targetId} support={tasks} on={asTask} onChange={setAsTask} />}
        <span className="spacer" />
        <button className="btn primary" onClick={() => void submit()} disabled={!live || busy}>
          {busy ? 'Calling…' : 'Call'}
        </button>
      </div>
      {tool.description && <AgentText value={tool.description} className="muted entry-description" />}
      {mode === 'form' ? (
        <SchemaForm key={key} schema={schema} value={draft.values} onChange={(values) => keep({ values })} />
      ) : (
        <textarea
          className="input composer-input mono"
          style={{ minHeight: 110 }}
          value={json}
          onChange={(e) => keep({ json: e.target.value })}
          aria-label="Raw arguments (JSON)"
        />
      )}
      {error && <div className="error-text">{error}</div>}
    </div>
  )
}

function Verdict({ call }: { call: CallEvent }) {
  const bad =
    call.hookError ||
    call.validation.hooked.valid === false ||
    (call.contextEcho?.present && !call.contextEcho.matchesRaw) ||
    call.error ||
    !!call.adcp?.findings.length ||
    (call.response as { isError?: unknown } | undefined)?.isError === true
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

function CallResult({ call, onRead }: { call: CallEvent; onRead?: (uri: string) => void }) {
  const echo = call.contextEcho
  const [raw, setRaw] = useState(false)
  const mcpResult = call.protocol === 'mcp' && call.response !== undefined && typeof call.response === 'object'
  return (
    <div className="call-result" data-testid="call-result">
      <div className="call-title">
        <Name value={call.tool} className="mono" />
        <span className="muted">
          {clock(call.ts)}
          {call.view ? ` · called by its App view (${call.view.uri})` : ''}
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
        {call.adcp && <AdcpFindings {...call.adcp} />}
        {call.error && <div className="verdict bad">Call failed: {call.error}</div>}
      </div>
      {call.sent && call.response !== undefined && (
        <div className="card" data-testid="response">
          <h3>
            Response <span className="spacer" />
            {mcpResult && (
              <button className="btn small ghost" onClick={() => setRaw(!raw)}>
                {raw ? 'As content' : 'As JSON'}
              </button>
            )}
            <CopyButton value={() => call.response} />
          </h3>
          {mcpResult && !raw ? <ToolResult result={call.response} onRead={onRead} /> : <JsonView value={call.response} openDepth={2} />}
        </div>
      )}
    </div>
  )
}
