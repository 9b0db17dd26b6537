import type { AcpPromptAnswer, AcpToolCall, ConversationMessage } from '../contract'
import { now } from '../runtime/clock'

/** Text kept per streamed message before it is said anyway (a flood of chunks never grows without bound). */
const FLUSH_AT = 64 * 1024
/** Tool calls kept per turn; an agent that makes more is still shown, its calls past this one only as messages. */
const MAX_TOOL_CALLS = 1_000

type Stream = 'message' | 'thought' | 'user'

/**
 * How an ACP session's `session/update` stream becomes the conversation, as it arrives (the counterpart of
 * shared/a2a/streamProjection.ts): message and thought chunks are joined into one message each (said when
 * the message ends — another kind of update, a new `messageId`, the turn's end); each tool call is said when
 * it is created and again at each change of status; a plan is said whole each time it changes. The turn
 * ends with a `status` message whose state is the stop reason and whose data is the output of the turn's
 * last completed tool call: what parity compares with an MCP tool's result. Updates outside a prompt (the
 * history `session/load` replays) are said without a turn, so they are shown and never compared.
 */
export class SessionProjection {
  private turn: number | undefined
  private pending: { stream: Stream; messageId?: string; text: string } | undefined
  private toolCalls = new Map<string, AcpToolCall>()
  private text: string[] = []
  private thoughts: string[] = []
  private plan: AcpPromptAnswer['plan']

  constructor(
    private readonly say: (message: ConversationMessage) => void,
    private readonly clock: () => number = now,
  ) {}

  /** A prompt turn starts: the user's message is said (a slash command with JSON input as the call it stands for). */
  begin(turn: number, text: string, call?: { tool: string; arguments: Record<string, unknown> }): void {
    this.flush()
    this.turn = turn
    this.toolCalls = new Map()
    this.text = []
    this.thoughts = []
    this.plan = undefined
    this.say({
      role: 'user',
      content: text,
      timestamp: this.clock(),
      metadata: { kind: call ? 'call' : 'message', timestampSource: 'observed', turn, ...(call && { data: call }) },
    })
  }

  /** One `session/update`, as the wire carried it. */
  update(params: unknown): void {
    const update = ((params ?? {}) as { update?: Record<string, unknown> }).update
    if (!update || typeof update !== 'object') return
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('message', update)
      case 'agent_thought_chunk':
        return this.chunk('thought', update)
      case 'user_message_chunk':
        return this.chunk('user', update)
      case 'tool_call':
      case 'tool_call_update':
        return this.toolCall(update)
      case 'plan':
        return this.sayPlan(update)
    }
  }

  /** The turn ended (the prompt's answer, or its failure): what is pending is said, then how it ended. */
  end(sessionId: string, stopReason: string, error?: { code?: number; message: string }): AcpPromptAnswer {
    this.flush()
    const turn = this.turn
    const toolCalls = [...this.toolCalls.values()]
    const data = toolCalls.findLast((c) => c.status === 'completed' && c.rawOutput !== undefined)?.rawOutput
    this.say({
      role: 'agent',
      content: error ? error.message : '',
      timestamp: this.clock(),
      metadata: {
        kind: error ? 'error' : 'status',
        timestampSource: 'observed',
        state: stopReason,
        ...(turn !== undefined && { turn }),
        ...(data !== undefined && { data }),
        ...(error?.code !== undefined && { code: error.code }),
      },
    })
    this.turn = undefined
    return {
      sessionId,
      stopReason,
      text: this.text.join(''),
      ...(this.thoughts.length > 0 && { thoughts: this.thoughts.join('') }),
      toolCalls,
      ...(this.plan && { plan: this.plan }),
      ...(data !== undefined && { data }),
      ...(error && { error }),
    }
  }

  private chunk(stream: Stream, update: Record<string, unknown>): void {
    const messageId = typeof update.messageId === 'string' ? update.messageId : undefined
    if (this.pending && (this.pending.stream !== stream || this.pending.messageId !== messageId)) this.flush()
    const text = blockText(update.content)
    if (this.turn !== undefined) (stream === 'thought' ? this.thoughts : stream === 'message' ? this.text : []).push(text)
    this.pending ??= { stream, messageId, text: '' }
    this.pending.text += text
    if (this.pending.text.length > FLUSH_AT) this.flush()
  }

  /** Says what is still being joined: the history a `session/load` replayed ends with its answer, not with another update. */
  settle(): void {
    this.flush()
  }

  private flush(): void {
    const pending = this.pending
    this.pending = undefined
    if (!pending || !pending.text) return
    this.say({
      role: pending.stream === 'user' ? 'user' : 'agent',
      content: pending.text,
      timestamp: this.clock(),
      metadata: {
        kind: pending.stream === 'thought' ? 'thought' : 'message',
        timestampSource: 'observed',
        ...(this.turn !== undefined ? { turn: this.turn } : { replayed: true }),
        ...(pending.messageId && { messageId: pending.messageId }),
      },
    })
  }

  private toolCall(update: Record<string, unknown>): void {
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : undefined
    if (!id) return
    this.flush()
    const known = this.toolCalls.get(id)
    const call: AcpToolCall = known ?? { toolCallId: id, title: '', status: 'pending' }
    const before = known?.status
    const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
    call.title = text(update.title) ?? call.title
    call.name = text(update.name) ?? call.name
    call.kind = text(update.kind) ?? call.kind
    call.status = text(update.status) ?? call.status
    if ('rawInput' in update && update.rawInput !== undefined) call.rawInput = update.rawInput
    if ('rawOutput' in update && update.rawOutput !== undefined) call.rawOutput = update.rawOutput
    if (Array.isArray(update.content)) call.text = update.content.map(toolContentText).filter(Boolean).join('\n') || call.text
    if (Array.isArray(update.locations))
      call.locations = update.locations.map((l: { path?: unknown; line?: unknown }) =>
        typeof l?.line === 'number' ? `${String(l.path)}:${l.line}` : String(l?.path),
      )
    if (!known && this.toolCalls.size < MAX_TOOL_CALLS) this.toolCalls.set(id, call)
    // Said when it is created and at each change of status: content streamed into it shows with the next change.
    if (known && before === call.status) return
    this.say({
      role: 'agent',
      content: [call.title || call.name || id, call.text].filter(Boolean).join('\n'),
      timestamp: this.clock(),
      metadata: {
        kind: 'tool',
        timestampSource: 'observed',
        ...(this.turn !== undefined ? { turn: this.turn } : { replayed: true }),
        toolCallId: id,
        state: call.status,
        ...(call.name && { tool: call.name }),
        ...(call.kind && { toolKind: call.kind }),
        data: {
          ...(call.rawInput !== undefined && { input: call.rawInput }),
          ...(call.rawOutput !== undefined && { output: call.rawOutput }),
        },
        ...(call.locations && { locations: call.locations }),
      },
    })
  }

  private sayPlan(update: Record<string, unknown>): void {
    if (!Array.isArray(update.entries)) return
    this.flush()
    const entries = update.entries.map((e: { content?: unknown; status?: unknown; priority?: unknown }) => ({
      content: String(e?.content ?? ''),
      status: String(e?.status ?? 'pending'),
      ...(typeof e?.priority === 'string' && { priority: e.priority }),
    }))
    if (this.turn !== undefined) this.plan = entries
    this.say({
      role: 'agent',
      content: entries.map((e) => `${PLAN_MARK[e.status] ?? '·'} ${e.content}`).join('\n'),
      timestamp: this.clock(),
      metadata: {
        kind: 'plan',
        timestampSource: 'observed',
        ...(this.turn !== undefined ? { turn: this.turn } : { replayed: true }),
        data: entries,
      },
    })
  }
}

const PLAN_MARK: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●' }

/** A content block as text: its text, else what it is (an image, a link to a resource). */
export function blockText(block: unknown): string {
  const b = (block ?? {}) as { type?: unknown; text?: unknown; uri?: unknown; resource?: { uri?: unknown; text?: unknown } }
  if (b.type === 'text' && typeof b.text === 'string') return b.text
  if (b.type === 'resource_link') return `[resource ${String(b.uri)}]`
  if (b.type === 'resource') return typeof b.resource?.text === 'string' ? b.resource.text : `[resource ${String(b.resource?.uri)}]`
  return typeof b.type === 'string' ? `[${b.type}]` : ''
}

function toolContentText(content: { type?: unknown; content?: unknown; path?: unknown; terminalId?: unknown }): string {
  if (content?.type === 'content') return blockText(content.content)
  if (content?.type === 'diff') return `[diff ${String(content.path)}]`
  if (content?.type === 'terminal') return `[terminal ${String(content.terminalId)}]`
  return ''
}
