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
  /** message: a chat message; status: a task state change; artifact: a result; call/result: an MCP tool call and its result; error: a failed turn. */
  kind: 'message' | 'status' | 'artifact' | 'call' | 'result' | 'error'
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
