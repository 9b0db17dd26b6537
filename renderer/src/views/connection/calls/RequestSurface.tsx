import { useState } from 'react'
import { asksProgress, PROGRESS_METHODS } from '../../../../../shared/contract'
import { JsonView } from '../../../components/JsonView'
import { keepDraft, pickEntry, sendRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import type { CallSurface, Draft } from '../../../store/store'
import { parseObject } from './act'
import { InFlightList } from './InFlight'
import { ExchangeView, isLive } from './surfaceParts'

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
