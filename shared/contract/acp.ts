/**
 * The Agent Client Protocol as the contract carries it: what an ACP handshake showed, what a prompt turn
 * came to, and the words a person reads for them. Pure data and helpers: the UI imports them.
 */

/** ACP's protocol version is a number, bumped only for breaking changes; the SDK Parallax speaks asks for 1. */
export const ACP_PROTOCOL_VERSION = 1

/**
 * The proposal's hint (an RFD of the ACP repository, not yet in the SDK's schema): which vendor-neutral
 * categories of the agent's own tools the client would like exposed. An agent MAY honour it; a client
 * must never rely on it. Parallax sends it as the proposal's `ClientCapabilities` field and, per profile,
 * in `_meta` too (where an agent built on the SDK's schemas can still read it).
 */
export const ACP_HINT_FIELD = 'requested_tool_categories'
export const ACP_HINT_META_KEY = 'io.parallax/requested_tool_categories'

/** The categories the proposal names; a profile may ask for others (agents ignore what they do not know). */
export const ACP_TOOL_CATEGORIES = ['search', 'social_search', 'media_generation', 'web', 'code_execution', 'voice'] as const

/** A tool call as Parallax saw it over a turn: created, then updated (status, content, output) until it ended. */
export interface AcpToolCall {
  toolCallId: string
  title: string
  /** The programmatic name, when the agent gave one: what maps onto an MCP tool or an A2A skill. */
  name?: string
  kind?: string
  status: string
  rawInput?: unknown
  rawOutput?: unknown
  /** The text of its content blocks (diffs and terminals named). */
  text?: string
  locations?: string[]
}

/** What one prompt turn came to: why the agent stopped, what it said, the tool calls it made, and the plan it last showed. */
export interface AcpPromptAnswer {
  sessionId: string
  /** ACP's own word: end_turn, max_tokens, max_turn_requests, refusal, cancelled — or `error` when the prompt failed. */
  stopReason: string
  text: string
  thoughts?: string
  toolCalls: AcpToolCall[]
  plan?: { content: string; status: string; priority?: string }[]
  /** The output of the turn's last completed tool call: what parity compares with an MCP tool's data. */
  data?: unknown
  error?: { code?: number; message: string }
}

/** A prompt as ACP sends it: a slash command when the turn is a call (`/tool {json}`), else the text. */
export function promptTextOf(turn: { text: string } | { tool: string; arguments: Record<string, unknown> }): string {
  if ('text' in turn) return turn.text
  return Object.keys(turn.arguments).length ? `/${turn.tool} ${JSON.stringify(turn.arguments)}` : `/${turn.tool}`
}

/** A prompt that is a slash command with JSON input, read back as the call it stands for; undefined for any other text. */
export function slashCall(text: string): { tool: string; arguments: Record<string, unknown> } | undefined {
  const match = /^\/([\w.:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return undefined
  const rest = match[2]?.trim()
  if (!rest) return { tool: match[1], arguments: {} }
  try {
    const parsed: unknown = JSON.parse(rest)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { tool: match[1], arguments: parsed as Record<string, unknown> }
      : undefined
  } catch {
    return undefined
  }
}

/** ACP's stop reasons in words. */
export const STOP_REASON_TEXT: Record<string, string> = {
  end_turn: 'the agent finished its turn',
  max_tokens: 'the agent ran out of tokens',
  max_turn_requests: 'the agent reached its limit of model requests for a turn',
  refusal: 'the agent refused to go on',
  cancelled: 'the turn was cancelled',
  error: 'the prompt failed',
}

/** What an ACP `initialize` (and the session after it) showed: the handshake event's own fields. */
export interface AcpHandshake {
  transport: 'stdio'
  requestedProtocolVersion: number
  protocolVersion?: number
  clientInfo: { name: string; version: string }
  /** Exactly as sent: `fs`, `terminal`, the hint as the proposal's field and under `_meta`, per profile. */
  clientCapabilities: Record<string, unknown>
  agentCapabilities: Record<string, unknown>
  agentInfo?: { name: string; version: string; title?: string | null }
  authMethods: { id: string; name: string; description?: string | null; type?: string }[]
  /** The hint this connection offered, and how (the proposal's field, `_meta`): what Compare asks the agent about. */
  hint?: { categories: string[]; via: ('field' | 'meta')[] }
  /** The folder the agent's `fs/*` and `terminal/*` requests are confined to (none: fs is not offered). */
  workspace?: string
  /** Capabilities the profile has that this connection did not offer, and why (fs without a workspace). */
  notOffered?: string[]
  /** The session opened after `initialize` (absent when it could not be: the failure says why). */
  session?: AcpSessionInfo
  /** ACP has no ping: how keepalive watches the agent instead. */
  keepalive: string
  durationMs: number
  profile?: string
}

/** The session a connection opened (`session/new`) or loaded (`session/load`), and the MCP servers it handed the agent. */
export interface AcpSessionInfo {
  sessionId: string
  how: 'new' | 'load'
  /** Why it was loaded, or why a new one was made when loading was not offered. */
  reason?: string
  cwd: string
  mcpServers: { name: string; transport: string }[]
  /** Servers the user chose that this agent cannot take (no MCP-over-HTTP support, say), and why. */
  mcpServersSkipped?: { name: string; why: string }[]
  modes?: { currentModeId?: string; available: { id: string; name: string }[] }
}
