import type { FrameEvent, FrameProtocol } from './events'

/**
 * Resending a request seen in Frames, as it was or edited: what can be resent, what asks first, and what
 * a resend came to. Pure: the UI, the CLI and the engine share these rules.
 */

/** One place where edited params break the protocol's schema for the method: a JSON path and why. */
export interface RequestProblem {
  path: string
  message: string
}

/** What checking a request before it is sent found. */
export interface RequestCheck {
  method: string
  /** Empty when the params fit the protocol's schema for the method (or the method has none to check against). */
  problems: RequestProblem[]
  /** Why sending it changes something on the agent (a tool call, a message, a cancel): it asks first. Absent for a read. */
  changesState?: string
  /** Whether the protocol's schema for the method was known (an extension's method is sent as given). */
  schemaKnown: boolean
}

/** A2A methods by generation: v1.0 names and v0.3 names mean the same operation. */
const A2A_SEND = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream'])
const A2A_CANCEL = new Set(['CancelTask', 'tasks/cancel'])

/** Why sending `method` changes state on the agent (so a person confirms a resend), or undefined for a read. */
export function changesState(protocol: FrameProtocol, method: string): string | undefined {
  if (protocol === 'mcp') {
    if (method === 'tools/call') return 'a tool call can change what the server holds'
    if (method === 'tasks/cancel') return 'it cancels a task'
    if (method === 'logging/setLevel') return 'it changes the log level the server sends at'
    if (method === 'resources/subscribe' || method === 'resources/unsubscribe') return 'it changes what the server sends updates about'
    return undefined
  }
  if (protocol === 'a2a') {
    if (A2A_SEND.has(method)) return 'it sends the agent a message, which starts or continues work'
    if (A2A_CANCEL.has(method)) return 'it cancels a task'
  }
  return undefined
}

/** Why a frame cannot be resent, or undefined when it can: only requests Parallax sent to an agent. */
export function notResendable(frame: Pick<FrameEvent, 'direction' | 'kind' | 'protocol' | 'method' | 'truncated'>): string | undefined {
  if (frame.protocol === 'mcp-app') return "an App view's message is the view's to send"
  if (frame.direction !== 'out' || frame.kind !== 'request') return 'only a request Parallax sent can be resent'
  if (!frame.method) return 'the request names no method'
  if (frame.method === 'initialize') return 'initialize is the handshake: reconnect to run it again'
  if (frame.method === 'agent-card') return 'the agent card is fetched by discovery: Refresh fetches it again'
  if (frame.truncated) return 'the request was too large to keep whole in view'
  return undefined
}

/** The params of a request frame as an editor shows them (MCP and A2A JSON-RPC: `params`; A2A REST: the body). */
export function requestParams(frame: Pick<FrameEvent, 'payload' | 'transport'>): Record<string, unknown> {
  const payload = frame.payload
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {}
  const body = payload as Record<string, unknown>
  if (typeof body.jsonrpc === 'string' || typeof body.method === 'string') {
    const params = body.params
    if (!params || typeof params !== 'object' || Array.isArray(params)) return {}
    // The progress token was this request's own; a resend gets its own.
    const { _meta, ...rest } = params as Record<string, unknown>
    const meta = _meta && typeof _meta === 'object' ? withoutProgressToken(_meta as Record<string, unknown>) : undefined
    return meta && Object.keys(meta).length ? { ...rest, _meta: meta } : rest
  }
  return body
}

function withoutProgressToken({ progressToken: _, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return rest
}
