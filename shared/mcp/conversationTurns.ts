import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { toolResultState, type ConversationMessage } from '../contract'

/**
 * MCP carries no conversation history, so Parallax builds one from the session's own turns: the user
 * side is the tool call, the agent side is its result.
 */
/** The request id and progress token a call went out with: what its progress names and Cancel aborts. */
export interface RequestIds {
  requestId?: string | number
  progressToken?: string | number
}

/**
 * A request of the user's as it went out: its ids, and how long the connection waits for its answer
 * (`timeoutMs`; with a progress token, each progress report starts that wait again), so a UI says when it gives up.
 */
export interface SentRequest extends RequestIds {
  timeoutMs?: number
}

export function mcpCallMessage(
  tool: string,
  args: Record<string, unknown>,
  timestamp: number,
  turn: number,
  ids: SentRequest = {},
): ConversationMessage {
  return {
    role: 'user',
    content: `${tool} ${JSON.stringify(args)}`,
    timestamp,
    metadata: { kind: 'call', timestampSource: 'observed', turn, data: { tool, arguments: args }, ...sentRequest(ids) },
  }
}

/**
 * A tool's result: its text as the message, its structured content (else its text read as JSON) as data,
 * and its content blocks as they came (`content`: images, audio, resources, links), so a view can show each.
 */
export function mcpResultMessage(result: CallToolResult, timestamp: number, turn: number, ids: RequestIds = {}): ConversationMessage {
  const text = (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : c.type === 'resource' ? `[resource ${c.resource.uri}]` : `[${c.type}]`))
    .join('\n')
  return {
    role: 'agent',
    content: text,
    timestamp,
    metadata: {
      kind: toolResultState(result) === 'error' ? 'error' : 'result',
      timestampSource: 'observed',
      turn,
      data: result.structuredContent ?? jsonOf(text),
      ...(result.content?.some((c) => c.type !== 'text') && { content: result.content }),
      ...(ids.requestId !== undefined && { requestId: ids.requestId }),
    },
  }
}

/**
 * No result, for a tool call's turn or a request by method: the server's JSON-RPC error (its `code` and
 * `data`), or no answer at all (`noAnswer`: a timeout, the user's cancel, a lost connection).
 */
export function mcpErrorMessage(
  message: string,
  timestamp: number,
  about: RequestIds & { turn?: number; method?: string; code?: number; data?: unknown; noAnswer?: string } = {},
): ConversationMessage {
  return {
    role: 'agent',
    content: message,
    timestamp,
    metadata: {
      kind: 'error',
      timestampSource: 'observed',
      ...(about.turn !== undefined && { turn: about.turn }),
      ...(about.method !== undefined && { method: about.method }),
      ...(about.requestId !== undefined && { requestId: about.requestId }),
      ...(about.code !== undefined && { code: about.code }),
      ...(about.data !== undefined && { data: about.data }),
      ...(about.noAnswer !== undefined && { noAnswer: about.noAnswer }),
    },
  }
}

/** A sent request's fields for a message's metadata: those it has. */
export function sentRequest({ requestId, progressToken, timeoutMs }: SentRequest): SentRequest {
  return {
    ...(requestId !== undefined && { requestId }),
    ...(progressToken !== undefined && { progressToken }),
    ...(timeoutMs !== undefined && { timeoutMs }),
  }
}

/** The text as JSON when it looks like an object or array (a throw per plain-text result would cost more). */
function jsonOf(text: string): unknown {
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
