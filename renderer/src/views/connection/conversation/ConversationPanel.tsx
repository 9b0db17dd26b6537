import { useMemo, useState } from 'react'
import { visibleName, type A2aHandshakeEvent, type Turn } from '../../../../../shared/contract'
import { ConversationTimeline } from '../../../components/ConversationTimeline'
import { openSideBySide } from '../../../store/actions'
import { isObserved, sendsNothing, type ConnectionView } from '../../../store/connectionView'
import { command, useStore } from '../../../store/store'
import { AcpComposer } from './AcpComposer'
import { TasksDialog } from './TasksDialog'
import { InFlightList } from '../calls/InFlight'
import { TimeRangeChip } from '../timeline/TimeRangeChip'
import './conversation.css'

/** The conversation of one connection: a composer for the next turn, and the timeline. */
export function ConversationPanel({ view }: { view: ConnectionView }) {
  const live = view.state === 'connected' || view.state === 'degraded'
  const [tasksOpen, setTasksOpen] = useState(false)
  // A range brushed on the Timeline: only the messages in it.
  const brushed = useStore((s) => s.timeRanges[view.id])
  const messages = useMemo(
    () => (brushed ? view.conversation.filter((m) => m.ts >= brushed.from && m.ts <= brushed.to) : view.conversation),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the list grows in place: its length says it changed
    [brushed, view.conversation, view.conversation.length],
  )
  return (
    <div className="panel fill" style={{ flexDirection: 'column' }}>
      {sendsNothing(view) ? null : view.protocol === 'a2a' ? (
        <A2aComposer view={view} live={live} />
      ) : view.protocol === 'acp' ? (
        <AcpComposer view={view} live={live} />
      ) : (
        <McpComposer view={view} live={live} />
      )}
      {view.protocol === 'mcp' && !sendsNothing(view) && <InFlightList view={view} />}
      <ConversationTimeline
        events={messages}
        checks={view.adcp}
        empty={
          brushed
            ? 'No message in the range brushed on the Timeline.'
            : isObserved(view)
              ? `No turns yet: each ${view.protocol === 'acp' ? 'prompt' : 'tool call'} the host makes is a turn, shown as it crosses.`
              : view.protocol === 'a2a'
                ? 'No turns yet. Send a message: text, or a JSON data part such as {"skill": "get_products", "input": {"buying_mode": "brief", "brief": "sports"}}.'
                : view.protocol === 'acp'
                  ? 'No turns yet. Send a prompt: each prompt is a turn, and what the agent streams back — thoughts, tool calls, plans, messages — shows here as it comes.'
                  : 'No turns yet. MCP has no conversation of its own: each tool call you make here is a turn.'
        }
      />
      <div className="toolbar" style={{ borderTop: '1px solid var(--border)', borderBottom: 0 }}>
        <span className="muted">{brushed ? `${messages.length} of ${view.conversation.length}` : view.conversation.length} message(s)</span>
        {brushed && <TimeRangeChip connectionId={view.id} range={brushed} />}
        <span className="spacer" />
        {!sendsNothing(view) &&
          (view.protocol === 'a2a' ||
            (view.handshake && 'serverCapabilities' in view.handshake && !!view.handshake.serverCapabilities.tasks)) && (
            <button className="btn small" disabled={!live} onClick={() => setTasksOpen(true)}>
              Tasks…
            </button>
          )}
        <button className="btn small" onClick={() => openSideBySide({ left: view.id })}>
          Side by side…
        </button>
      </div>
      {tasksOpen && (
        <TasksDialog
          connectionId={view.id}
          onClose={() => setTasksOpen(false)}
          pushNotifications={view.handshake?.protocol === 'a2a' ? view.handshake.capabilities.pushNotifications : undefined}
        />
      )}
    </div>
  )
}

function useSend(view: ConnectionView) {
  const [busy, setBusy] = useState(false)
  const send = async (turn: Turn, options: { stream?: boolean; newContext?: boolean } = {}) => {
    setBusy(true)
    const result = await command((api) => api.invoke('conversation.send', { connectionId: view.id, turn, ...options }))
    setBusy(false)
    return result
  }
  return { busy, send }
}

function A2aComposer({ view, live }: { view: ConnectionView; live: boolean }) {
  const [mode, setMode] = useState<'text' | 'data'>('text')
  const [text, setText] = useState('')
  const [error, setError] = useState<string>()
  const handshake = view.handshake as A2aHandshakeEvent | undefined
  const canStream = handshake?.capabilities.streaming ?? false
  const [stream, setStream] = useState(true)
  const { busy, send } = useSend(view)
  const last = view.conversation.at(-1)?.message.metadata
  const awaiting = last?.kind === 'status' && (last.state === 'input-required' || last.state === 'auth-required') ? last : undefined
  const contextId = [...view.conversation].reverse().find((e) => e.message.metadata?.contextId)?.message.metadata?.contextId

  const submit = async () => {
    setError(undefined)
    let turn: Turn
    if (mode === 'data') {
      try {
        const data = JSON.parse(text)
        if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('a data part is a JSON object')
        turn = { data }
      } catch (e) {
        setError((e as Error).message)
        return
      }
    } else {
      if (!text.trim()) return
      turn = { text }
    }
    if (await send(turn, { stream: stream && canStream })) setText('')
  }

  return (
    <div className="composer">
      <div className="composer-row">
        <div className="segmented">
          <button className={mode === 'text' ? 'on' : ''} onClick={() => setMode('text')}>
            Text
          </button>
          <button className={mode === 'data' ? 'on' : ''} onClick={() => setMode('data')}>
            JSON data
          </button>
        </div>
        <label className="muted" title={canStream ? '' : 'the agent does not advertise streaming'}>
          <input type="checkbox" checked={stream && canStream} disabled={!canStream} onChange={(e) => setStream(e.target.checked)} /> stream
        </label>
        <span className="thread" data-testid="thread">
          {awaiting ? (
            <>
              continues task <span className="mono">{String(awaiting.taskId).slice(0, 8)}</span>{' '}
              <span className={`state-chip ${awaiting.state}`}>{awaiting.state}</span>
            </>
          ) : contextId ? (
            <>
              in context <span className="mono">{String(contextId).slice(0, 8)}</span>
            </>
          ) : (
            'a new context'
          )}
        </span>
        <span className="spacer" />
        <button
          className="btn small"
          disabled={!live || !contextId}
          onClick={() => void command((api) => api.invoke('conversation.newContext', { connectionId: view.id })).then(() => setText(''))}
          title="The next message starts a new context"
        >
          New context
        </button>
      </div>
      <div className="composer-row">
        <textarea
          className="input composer-input mono"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={
            mode === 'text'
              ? awaiting
                ? 'Answer the agent…'
                : 'Message the agent, e.g. "buy prod_mobile_run 2000"'
              : '{"skill": "get_products", "input": {"buying_mode": "brief", "brief": "sports video"}}'
          }
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || (mode === 'text' && !e.shiftKey))) {
              e.preventDefault()
              void submit()
            }
          }}
          aria-label="Message"
          disabled={!live}
        />
        <button className="btn primary" onClick={() => void submit()} disabled={!live || busy}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
      {error && <div className="error-text">{error}</div>}
    </div>
  )
}

interface ToolInfo {
  name: string
  inputSchema?: { properties?: Record<string, { type?: string; enum?: unknown[] }>; required?: string[] }
}

function McpComposer({ view, live }: { view: ConnectionView; live: boolean }) {
  const tools = (view.catalog['tools/list'] ?? []) as ToolInfo[]
  const [tool, setTool] = useState('')
  const [args, setArgs] = useState('{}')
  const [error, setError] = useState<string>()
  const { busy, send } = useSend(view)
  const selected = tools.find((t) => t.name === tool) ?? tools[0]
  const template = useMemo(() => argumentTemplate(selected), [selected])

  if (tools.length === 0) {
    return (
      <div className="composer muted">
        {view.handshake
          ? 'This server lists no tools, so there is nothing to call: MCP turns are tool calls.'
          : 'Connect to list the tools.'}
      </div>
    )
  }
  const submit = async () => {
    setError(undefined)
    let parsed: unknown
    try {
      parsed = JSON.parse(args)
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('arguments are a JSON object')
    } catch (e) {
      setError((e as Error).message)
      return
    }
    await send({ tool: selected.name, arguments: parsed as Record<string, unknown> })
  }
  return (
    <div className="composer">
      <div className="composer-row">
        <select
          className="input"
          value={selected.name}
          onChange={(e) => {
            setTool(e.target.value)
            setArgs(JSON.stringify(argumentTemplate(tools.find((t) => t.name === e.target.value)), null, 2))
          }}
          aria-label="Tool"
        >
          {tools.map((t) => (
            <option key={t.name} value={t.name}>
              {visibleName(t.name)}
            </option>
          ))}
        </select>
        <button className="btn small ghost" onClick={() => setArgs(JSON.stringify(template, null, 2))}>
          Fill required fields
        </button>
      </div>
      <div className="composer-row">
        <textarea
          className="input composer-input mono"
          value={args}
          onChange={(e) => setArgs(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              void submit()
            }
          }}
          aria-label="Arguments (JSON)"
          disabled={!live}
        />
        <button className="btn primary" onClick={() => void submit()} disabled={!live || busy} title="Ctrl+Enter">
          {busy ? 'Calling…' : 'Call'}
        </button>
      </div>
      {error && <div className="error-text">{error}</div>}
    </div>
  )
}

function argumentTemplate(tool: ToolInfo | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of tool?.inputSchema?.required ?? []) {
    const schema = tool?.inputSchema?.properties?.[name]
    out[name] =
      schema?.enum?.[0] ??
      (schema?.type === 'number' || schema?.type === 'integer'
        ? 0
        : schema?.type === 'boolean'
          ? false
          : schema?.type === 'object'
            ? {}
            : '')
  }
  return out
}
