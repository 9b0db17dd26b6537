import { useState } from 'react'
import type { ConversationEvent } from '../../../../../shared/contract'
import { clock } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { AgentText } from '../../../components/Name'
import { completeArgument } from '../../../store/actions'
import type { ConnectionView } from '../../../store/connectionView'
import type { Exchange } from '../../../store/requests'
import type { Completer } from './SchemaForm'

// What every call surface (a prompt, a resource, a template, any request) uses: whether the connection can be
// asked, the server's completions, and the answer of the last exchange.

export function capabilities(view: ConnectionView): Record<string, unknown> {
  return view.handshake?.protocol === 'mcp' ? view.handshake.serverCapabilities : {}
}

export function isLive(view: ConnectionView): boolean {
  return view.state === 'connected' || view.state === 'degraded'
}

/** Suggestions from the server for an argument of `ref` (a prompt, a resource template), when it advertises `completions`. */
export function completer(view: ConnectionView, ref: Record<string, unknown>): Completer | undefined {
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
export function CompletionNote({ view, any }: { view: ConnectionView; any: boolean }) {
  if (!any) return null
  return (
    <div className="muted completion-note">
      {capabilities(view).completions
        ? 'The server offers completions (completion/complete): suggestions come as you type.'
        : 'The server does not advertise "completions": no suggestions.'}
    </div>
  )
}

/** One exchange's answer: the result rendered as what it is, the server's JSON-RPC error, or why none came. */
export function ExchangeView({
  exchange,
  empty,
  render,
}: {
  exchange?: Exchange
  empty: string
  render: (result: unknown) => React.ReactNode
}) {
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
