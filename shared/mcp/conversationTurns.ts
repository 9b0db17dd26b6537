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

/** No result: the server's JSON-RPC error (`code`), or none at all (`noAnswer`: timeout, cancelled, lost). */
export function mcpErrorMessage(
  message: string,
  timestamp: number,
  turn: number,
  code?: number,
  ids: RequestIds & { noAnswer?: string } = {},
): ConversationMessage {
  return {
    role: 'agent',
    content: message,
    timestamp,
    metadata: {
      kind: 'error',
      timestampSource: 'observed',
      turn,
      ...(code !== undefined && { code }),
      ...(ids.requestId !== undefined && { requestId: ids.requestId }),
      ...(ids.noAnswer !== undefined && { noAnswer: ids.noAnswer }),
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
