/**
 * One conversation model for both protocols (docs/architecture.md). Pure data and helpers: no protocol code.
 */

export type Role = 'user' | 'agent'

/** Where a message's timestamp came from: A2A history carries none, so Parallax stamps what it saw. */
export type TimestampSource = 'observed' | 'reported'

export interface ConversationMessage {
  role: Role
  content: string
  /** Epoch milliseconds. */
  timestamp: number
  metadata?: ConversationMetadata
}

export interface ConversationMetadata {
  /**
   * ask/answer: a request the server sent its client (sampling, elicitation) and the client's answer;
   * message: a chat message; status: a task state change; artifact: a result; call/result: an MCP tool call
   * and its result; request/result: any other MCP request (`method` names it) and its answer; error: a
   * failed turn or request; thought/tool/plan: an ACP agent's thinking, one of its tool calls (as it stands
   * now: `toolCallId`, `status`), its plan; push: an A2A push notification that reached Parallax's webhook receiver.
   */
  kind:
    'message' | 'status' | 'artifact' | 'call' | 'request' | 'result' | 'error' | 'ask' | 'answer' | 'thought' | 'tool' | 'plan' | 'push'
  timestampSource: TimestampSource
  messageId?: string
  taskId?: string
  contextId?: string
  /** A2A task state without its TASK_STATE_ prefix, lowercase: submitted, working, input-required, completed … */
  state?: string
  /** Structured content: data parts, an artifact's data, an MCP structuredContent. */
  data?: unknown
  /** The turn (1-based) this message belongs to. */
  turn?: number
  [key: string]: unknown
}

export interface ConversationContext {
  contextId?: string
  history: ConversationMessage[]
}

export function lastUserMessage(context: ConversationContext): ConversationMessage | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) if (context.history[i].role === 'user') return context.history[i]
  return undefined
}

/** A few lines a person can read: the last `maxMessages` messages, one line each. */
export function summary(context: ConversationContext, maxMessages = 5): string {
  return context.history
    .slice(-maxMessages)
    .map((m) => {
      const state = m.metadata?.state ? ` [${m.metadata.state}]` : ''
      const oneLine = m.content.replace(/\s*\n\s*/g, ' · ')
      const text = oneLine.length > 120 ? `${oneLine.slice(0, 117)}…` : oneLine
      return text ? `${m.role}${state}: ${text}` : `${m.role}${state}`
    })
    .join('\n')
}

/** A turn as the CLI and the composer express it. */
export type Turn = { text: string } | { data: Record<string, unknown> } | { tool: string; arguments: Record<string, unknown> }

/**
 * Turn states that make a turn a failed one: the agent answered, but with a failure (an MCP tool result
 * with `isError`, an A2A task that ended `failed` or `rejected`, an ACP turn the agent stopped short of
 * finishing: `refusal`, `max_tokens`, `max_turn_requests`), or no answer came at all (`error`).
 * The one definition every command, report and view uses (`isFailedTurn`, `turnFailure`).
 */
export const FAILED_TURN_STATES: ReadonlySet<string> = new Set([
  'error',
  'failed',
  'rejected',
  'refusal',
  'max_tokens',
  'max_turn_requests',
])

/**
 * How a turn ended, in one vocabulary for every protocol: parity compares this, and the protocol's own
 * word (MCP `error`, A2A `rejected`, …) is detail. `pending`: the agent had not finished (submitted,
 * working); `unknown`: there was nothing to read.
 */
export type TurnOutcome = 'completed' | 'failed' | 'input-required' | 'auth-required' | 'canceled' | 'pending' | 'unknown'

/** A protocol's word for how a turn ended, in the one vocabulary. */
export function turnOutcome(state: string): TurnOutcome {
  // ACP's `end_turn` is a finished turn; its `cancelled` is A2A's `canceled`.
  if (state === 'completed' || state === 'message' || state === 'end_turn') return 'completed'
  if (FAILED_TURN_STATES.has(state)) return 'failed'
  if (state === 'input-required' || state === 'auth-required') return state
  if (state === 'canceled' || state === 'cancelled') return 'canceled'
  if (state === 'submitted' || state === 'working') return 'pending'
  return 'unknown'
}

export function isFailedTurn(state: string | undefined): boolean {
  return state !== undefined && FAILED_TURN_STATES.has(state)
}

/** An MCP tool result as a turn's state: `error` when the tool said so (`isError`), else `completed`. */
export function toolResultState(result: { isError?: unknown; [field: string]: unknown } | null | undefined): 'error' | 'completed' {
  return result?.isError === true ? 'error' : 'completed'
}

/**
 * The state of what an agent answered to a turn or a call: an MCP tool result (`completed` or `error`),
 * an A2A task (its state), an A2A message (`message`); `unknown` when there was no answer to read.
 */
export function answerState(response: unknown): string {
  if (!response || typeof response !== 'object') return 'unknown'
  const answer = response as { content?: unknown; isError?: unknown; status?: { state?: unknown }; parts?: unknown; stopReason?: unknown }
  if (typeof answer.stopReason === 'string') return answer.stopReason
  if (Array.isArray(answer.content) || 'isError' in answer) return toolResultState(answer)
  if (typeof answer.status?.state === 'string') return answer.status.state
  return Array.isArray(answer.parts) ? 'message' : 'unknown'
}

/** Why an answer makes its turn a failed one (what the agent said, briefly), or undefined when it does not. */
export function turnFailure(response: unknown): string | undefined {
  const state = answerState(response)
  if (!isFailedTurn(state)) return undefined
  const answer = response as {
    content?: { text?: unknown }[]
    status?: { message?: { parts?: { text?: unknown }[] } }
    text?: unknown
    error?: { message?: unknown }
  }
  const acpSaid = typeof answer.error?.message === 'string' ? answer.error.message : typeof answer.text === 'string' ? answer.text : ''
  const said = (answer.content ?? answer.status?.message?.parts ?? [{ text: acpSaid }])
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join(' ')
  const brief = said.length > 300 ? `${said.slice(0, 299)}…` : said
  const what =
    'stopReason' in (response as object)
      ? `the prompt turn ended ${state}`
      : state === 'error'
        ? 'the tool answered with an error (isError)'
        : `the task ended ${state}`
  return brief ? `${what}: ${brief}` : what
}
