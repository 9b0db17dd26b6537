import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { AdcpCheckEvent, ConversationEvent, ConversationMessage } from '../../../shared/contract'
import { AdcpFindings } from './AdcpFindings'
import { clock } from './format'
import { AcpMessage, stopReasonText } from './AcpMessages'
import './timeline.css'
import './acp.css'
import { JsonView } from './JsonView'
import { richAnswer } from './McpContent'
import { FrameLink } from './FrameLink'
import { AgentText } from './Name'

/**
 * A conversation as two lanes (user left, agent right), with task state changes, artifacts and
 * timestamps marked observed or reported. Virtualized with measured heights, so long sessions stay fluid.
 */
export function ConversationTimeline({
  events,
  empty,
  checks = [],
}: {
  events: ConversationEvent[]
  empty: string
  /** AdCP turns that broke AdCP's schemas: shown after their turn's last message. */
  checks?: readonly AdcpCheckEvent[]
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 8,
  })
  useEffect(() => {
    if (events.length) virtualizer.scrollToIndex(events.length - 1, { align: 'end' })
  }, [events.length, virtualizer])
  return (
    <div ref={scroller} className="timeline" data-testid="timeline">
      {events.length === 0 ? (
        <div className="empty">{empty}</div>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const event = events[item.index]
            const previousTurn = item.index > 0 ? events[item.index - 1].message.metadata?.turn : undefined
            const turn = event.message.metadata?.turn
            const endsTurn = turn !== undefined && events[item.index + 1]?.message.metadata?.turn !== turn
            const turnChecks = endsTurn ? checks.filter((c) => c.turn === turn) : []
            return (
              <div
                key={event.seq}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="timeline-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {turn !== undefined && turn !== previousTurn && <div className="turn-label">Turn {turn}</div>}
                <MessageView message={event.message} connectionId={event.connectionId} />
                {turnChecks.map((c) => (
                  <div key={c.seq} className="turn-checks">
                    <AdcpFindings release={c.release} task={c.task} findings={c.findings} />
                  </div>
                ))}
              </div>
            )
          })}
        </div>
      )}
    </div>
  )
}

export function MessageView({ message, connectionId }: { message: ConversationMessage; connectionId?: string }) {
  const meta = message.metadata
  const kind = meta?.kind ?? 'message'
  const time = (
    <span
      className="msg-time"
      title={meta?.timestampSource === 'reported' ? 'time reported by the agent' : 'time Parallax observed it (A2A history carries none)'}
    >
      {clock(message.timestamp)}
      {meta?.timestampSource === 'reported' ? ' · reported' : ''}
    </span>
  )
  if (kind === 'push') {
    // A push that reached Parallax's webhook receiver: what it said (its content, when new, follows as status or artifact).
    return (
      <div className="msg agent status-msg push-msg" data-kind="push" data-state={meta?.state}>
        <span className="push-chip" title="A push notification the agent POSTed to Parallax's webhook receiver">
          push
        </span>
        {meta?.state && <span className={`state-chip ${meta.state}`}>{meta.state}</span>}
        <span className="muted">
          {message.content.replace(/^push notification: /, '')}
          {typeof meta?.frameSeq === 'number' && connectionId && (
            <>
              {' · '}
              <FrameLink connectionId={connectionId} seq={meta.frameSeq} title="The push as it came in" />
            </>
          )}
        </span>
        {time}
      </div>
    )
  }
  if (kind === 'status') {
    return (
      <div className="msg agent status-msg" data-kind="status" data-state={meta?.state}>
        <span className={`state-chip ${meta?.state ?? ''}`}>{meta?.state}</span>
        {message.content ? (
          <AgentText value={firstLine(message.content)} className="msg-text" />
        ) : (
          stopReasonText(meta?.state) && <span className="msg-text muted">{stopReasonText(meta?.state)}</span>
        )}
        {time}
      </div>
    )
  }
  if (kind === 'tool' || kind === 'thought' || kind === 'plan') return <AcpMessage message={message} time={time} />
  const data = meta?.data
  const label =
    kind === 'artifact'
      ? `artifact${meta?.name ? ` · ${String(meta.name)}` : ''}`
      : kind === 'call'
        ? 'tool call'
        : kind === 'result'
          ? 'result'
          : kind === 'error'
            ? 'error'
            : kind === 'ask'
              ? `${/^(session|terminal|fs)\//.test(String(meta?.method)) ? 'agent' : 'server'} asks · ${String(meta?.method ?? '')}`
              : kind === 'answer'
                ? `answer · ${meta?.by === 'script' ? 'scripted' : meta?.by === 'parallax' ? 'by Parallax' : 'yours'}`
                : message.role
  // What the server asked its client, and the answer: said in words, the request or result whole one click away.
  if (kind === 'ask' || kind === 'answer')
    return (
      <div className={`msg ${message.role} ${kind}`} data-kind={kind} data-role={message.role}>
        <div className="msg-head">
          <AgentText value={label} className="msg-label" />
          {time}
        </div>
        <MessageText content={message.content} data={undefined} />
        {data !== undefined && <JsonView value={data} openDepth={0} />}
      </div>
    )
  return (
    <div className={`msg ${message.role} ${kind}`} data-kind={kind} data-role={message.role}>
      <div className="msg-head">
        <AgentText value={methodLabel(message) ?? label} className="msg-label" />
        {time}
      </div>
      {richAnswer(message) ??
        (kind === 'request' ? (
          <MessageText content={message.content} data={undefined} />
        ) : data !== undefined && kind !== 'message' ? (
          <JsonView value={data} openDepth={2} />
        ) : (
          <MessageText content={message.content} data={data} />
        ))}
      {data !== undefined && kind === 'message' && <JsonView value={data} openDepth={1} />}
    </div>
  )
}

/** An MCP request by method and its answer say which method: "request · prompts/get", "result · resources/read". */
function methodLabel(message: ConversationMessage): string | undefined {
  const meta = message.metadata
  const kind = meta?.kind
  if (typeof meta?.method !== 'string' || (kind !== 'request' && kind !== 'result' && kind !== 'error')) return undefined
  return `${kind} · ${meta.method}`
}

/** A message's text; its data parts (which the text also carries as JSON lines) are shown as a tree instead, so not twice. */
function MessageText({ content, data }: { content: string; data: unknown }) {
  const asJson = new Set(data === undefined ? [] : [data, ...(Array.isArray(data) ? data : [])].map((d) => JSON.stringify(d)))
  const text = asJson.size
    ? content
        .split('\n')
        .filter((line) => !asJson.has(line))
        .join('\n')
    : content
  if (text)
    return (
      <div className="msg-text">
        <AgentText value={text} />
      </div>
    )
  return data === undefined ? (
    <div className="msg-text">
      <span className="muted">(empty)</span>
    </div>
  ) : null
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]
  return line.length > 200 ? `${line.slice(0, 197)}…` : line
}
