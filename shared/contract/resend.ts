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

/**
 * The methods known to change nothing on the agent, by protocol: sending one again asks nothing. Every other
 * method — a tool call, a message, a prompt, a cancel, a setting, an extension's method Parallax cannot
 * judge — changes state, so a person confirms before it is sent again. One rule for every protocol.
 */
const READS: Readonly<Record<string, ReadonlySet<string>>> = {
  mcp: new Set([
    'ping',
    'server/discover',
    'tools/list',
    'prompts/list',
    'prompts/get',
    'resources/list',
    'resources/templates/list',
    'resources/read',
    'completion/complete',
    'tasks/get',
    'tasks/list',
    'tasks/result',
  ]),
  // v1.0 names and v0.3 names of the same operations.
  a2a: new Set([
    'GetTask',
    'tasks/get',
    'ListTasks',
    'tasks/list',
    'SubscribeToTask',
    'tasks/resubscribe',
    'GetExtendedAgentCard',
    'agent/getAuthenticatedExtendedCard',
    'GetTaskPushNotificationConfig',
    'tasks/pushNotificationConfig/get',
    'ListTaskPushNotificationConfig',
    'ListTaskPushNotificationConfigs',
    'tasks/pushNotificationConfig/list',
  ]),
  acp: new Set(['session/list']),
}

/** What sending a state-changing method does, where Parallax can say it better than "it may change state". */
const CHANGES: Readonly<Record<string, string>> = {
  'mcp tools/call': 'a tool call can change what the server holds',
  'mcp tasks/cancel': 'it cancels a task',
  'mcp logging/setLevel': 'it changes the log level the server sends at',
  'mcp resources/subscribe': 'it changes what the server sends updates about',
  'mcp resources/unsubscribe': 'it changes what the server sends updates about',
  'mcp subscriptions/listen': 'it changes what the server sends updates about',
  'a2a SendMessage': 'it sends the agent a message, which starts or continues work',
  'a2a SendStreamingMessage': 'it sends the agent a message, which starts or continues work',
  'a2a message/send': 'it sends the agent a message, which starts or continues work',
  'a2a message/stream': 'it sends the agent a message, which starts or continues work',
  'a2a CancelTask': 'it cancels a task',
  'a2a tasks/cancel': 'it cancels a task',
  'acp session/prompt': 'it sends the agent a prompt, which starts work (tool calls, edits, commands)',
  'acp session/new': 'it opens a new session on the agent',
  'acp session/load': 'it loads a session again (the agent replays its history)',
  'acp session/cancel': 'it cancels the prompt in flight',
  'acp session/set_mode': 'it changes the session’s mode',
  'acp session/set_config_option': 'it changes the session’s settings',
  'acp authenticate': 'it signs in to the agent',
}

/** Why sending `method` changes state on the agent (so a person confirms a resend), or undefined for a known read. */
export function changesState(protocol: FrameProtocol, method: string): string | undefined {
  if (READS[protocol]?.has(method)) return undefined
  const known = CHANGES[`${protocol} ${method}`]
  if (known) return known
  if (protocol === 'a2a' && /PushNotificationConfig/i.test(method)) return 'it changes where the agent sends push notifications'
  return `Parallax does not know ${method} to be a read, so it may change what the ${protocol === 'mcp' ? 'server' : 'agent'} holds`
}

/** Why a frame cannot be resent, or undefined when it can: only requests Parallax sent to an agent. */
export function notResendable(frame: Pick<FrameEvent, 'direction' | 'kind' | 'protocol' | 'method' | 'truncated'>): string | undefined {
  if (frame.protocol === 'mcp-app') return "an App view's message is the view's to send"
  if (frame.direction !== 'out' || frame.kind !== 'request') return 'only a request Parallax sent can be resent'
  if (!frame.method) return 'the request names no method'
  if (frame.method === 'initialize') return 'initialize is the handshake: reconnect to run it again'
  if (frame.method === 'agent-card') return 'the agent card is fetched by discovery: Refresh fetches it again'
  if (frame.protocol === 'acp' && frame.method !== 'session/prompt')
    return `${frame.method} is the connection's own: a new session (or reconnecting) sends it again`
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
