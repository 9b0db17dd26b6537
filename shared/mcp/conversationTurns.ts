import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { toolResultState, type ConversationMessage } from '../contract'

/**
 * MCP carries no conversation history, so Parallax builds one from the session's own turns: the user
 * side is the tool call, the agent side is its result.
 */
export function mcpCallMessage(tool: string, args: Record<string, unknown>, timestamp: number, turn: number): ConversationMessage {
  return {
    role: 'user',
    content: `${tool} ${JSON.stringify(args)}`,
    timestamp,
    metadata: { kind: 'call', timestampSource: 'observed', turn, data: { tool, arguments: args } },
  }
}

export function mcpResultMessage(result: CallToolResult, timestamp: number, turn: number): ConversationMessage {
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
    },
  }
}

export function mcpErrorMessage(message: string, timestamp: number, turn: number, code?: number): ConversationMessage {
  return {
    role: 'agent',
    content: message,
    timestamp,
    metadata: { kind: 'error', timestampSource: 'observed', turn, ...(code !== undefined && { code }) },
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
