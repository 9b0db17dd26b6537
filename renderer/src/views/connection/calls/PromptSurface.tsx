import { useState } from 'react'
import { visibleName } from '../../../../../shared/contract'
import { PromptMessages } from '../../../components/McpContent'
import { AgentText } from '../../../components/Name'
import { keepDraft, pickEntry, sendRequest } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import { latestExchange } from '../../../store/requests'
import type { CallSurface, Draft } from '../../../store/store'
import type { Prompt } from '../catalog/catalogEntries'
import { readLinked } from './act'
import { InFlightList } from './InFlight'
import { SchemaForm, type JsonSchema } from './SchemaForm'
import { completer, CompletionNote, ExchangeView, isLive } from './surfaceParts'

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
