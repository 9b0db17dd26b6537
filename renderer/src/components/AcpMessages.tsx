import { STOP_REASON_TEXT, type ConversationMessage } from '../../../shared/contract'
import { JsonView } from './JsonView'
import { AgentText, Name } from './Name'

/**
 * What an ACP agent streams into a turn, as a person reads it: a tool call as it stands (its status chip,
 * title, the tool's name and kind, input and output one click away), a thought (set apart from what the
 * agent says), a plan (each entry with its status).
 */
export function AcpMessage({ message, time }: { message: ConversationMessage; time: React.ReactNode }) {
  const meta = message.metadata
  if (meta?.kind === 'tool') {
    const [title, ...rest] = message.content.split('\n')
    const data = meta.data as { input?: unknown; output?: unknown } | undefined
    return (
      <div className="msg agent tool" data-kind="tool" data-state={meta.state} data-tool={String(meta.tool ?? '')}>
        <div className="msg-head">
          <span className={`state-chip ${String(meta.state ?? '')}`}>{String(meta.state ?? '')}</span>
          <span className="msg-label">
            tool call · <AgentText value={title} />
            {typeof meta.tool === 'string' && (
              <>
                {' '}
                <Name value={meta.tool} className="mono muted" />
              </>
            )}
            {typeof meta.toolKind === 'string' && <span className="muted"> ({meta.toolKind})</span>}
          </span>
          {time}
        </div>
        {rest.length > 0 && meta.state !== 'completed' && (
          <div className="msg-text">
            <AgentText value={rest.join('\n')} />
          </div>
        )}
        {data && (data.input !== undefined || data.output !== undefined) && (
          <JsonView value={data} openDepth={meta.state === 'completed' ? 1 : 0} />
        )}
      </div>
    )
  }
  if (meta?.kind === 'thought' || meta?.kind === 'plan') {
    const kind = meta.kind
    return (
      <div className={`msg agent ${kind}`} data-kind={kind}>
        <div className="msg-head">
          <span className="msg-label">{kind}</span>
          {time}
        </div>
        <div className={kind === 'thought' ? 'msg-text muted' : 'msg-text'}>
          <AgentText value={message.content} />
        </div>
      </div>
    )
  }
  return null
}

/** An ACP stop reason in words, beside its chip ("the agent finished its turn"). */
export function stopReasonText(state: unknown): string | undefined {
  return typeof state === 'string' ? STOP_REASON_TEXT[state] : undefined
}
