import { z } from 'zod'
import type { AcpPromptAnswer } from '../acp'
import type { A2aMessage, A2aPart, A2aTask, McpToolResult } from '../agentData'
import type { ConversationContext } from '../conversation'
import type { CallReport } from '../events'
import { ConnectionRef } from './refs'

export const TurnSchema = z.union([
  z.object({ tool: z.string().min(1).max(500), arguments: z.record(z.string(), z.unknown()).default({}) }).strict(),
  z.object({ text: z.string().min(1, 'a text turn cannot be empty').max(1_000_000) }).strict(),
  z.object({ data: z.record(z.string(), z.unknown()) }).strict(),
])

/** The conversation on a connection (turns in either protocol), and the tasks of protocols that have them. */
export const conversationInputs = {
  /** One conversation turn: A2A text or data; MCP a tool call. */
  'conversation.send': ConnectionRef.extend({
    turn: TurnSchema,
    stream: z.boolean().default(false),
    newContext: z.boolean().default(false),
  }),
  'conversation.newContext': ConnectionRef,
  'tasks.get': ConnectionRef.extend({ taskId: z.string().min(1).max(500), historyLength: z.number().int().min(0).max(10_000).optional() }),
  'tasks.list': ConnectionRef.extend({ contextId: z.string().max(500).optional() }),
  'tasks.cancel': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
  'tasks.resubscribe': ConnectionRef.extend({ taskId: z.string().min(1).max(500) }),
} as const

export interface ConversationOutputs {
  'conversation.send': TurnResult
  'conversation.newContext': { ok: true }
  'tasks.get': { task: A2aTask; conversation: ConversationContext }
  'tasks.list': A2aTask[]
  'tasks.cancel': A2aTask
  /** The task as the stream left it (or the message it ended with). */
  'tasks.resubscribe': A2aTask | A2aMessage | null
}

/** What one turn sent and produced, for either protocol. */
export interface TurnResult {
  turn: number
  /** MCP: the tool call; A2A: the message's parts, and the task and context it continued; ACP: the prompt and its session. */
  request:
    | { tool: string; arguments: Record<string, unknown> }
    | { parts: A2aPart[]; taskId?: string; contextId?: string }
    | { prompt: string; sessionId: string }
  /** MCP: the tool result; A2A: the final task or message (null when a stream ended with neither); ACP: what the prompt turn came to. */
  response: McpToolResult | A2aTask | A2aMessage | AcpPromptAnswer | null
  /** A2A: the task's state (or `message`); MCP: `completed` or `error`; ACP: the stop reason (or `error`). */
  state: string
  taskId?: string
  contextId?: string
  streamed?: boolean
  /** A turn that calls an AdCP agent's task (an MCP tool call, an A2A `{skill, input}`): its request and response against AdCP's schemas. */
  adcp?: CallReport['adcp']
}
