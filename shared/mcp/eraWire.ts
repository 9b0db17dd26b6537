import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { MCP_2026_VERSION, type LogLevel } from '../contract'
import { errorMessage, jsonRpcErrorWords } from '../runtime/errors'

// The MCP 2026 era on the wire, as the connection needs it beside the 2.x client: the probe's ids, wait and
// answer in words, the `_meta` keys it reads and writes, and what a 2025 refusal by a 2026-only server says.

/** Ids the 2.x client gives its era probe (server/discover) — strings, so they never meet a session's numeric ids. */
export const PROBE_ID_PREFIX = 'server-discover-probe-'

/** How long a stdio server has to answer server/discover before it counts as a 2025 server (silent on the unknown request). */
export const STDIO_PROBE_MS = 10_000

/** The probe's answer in words, from its frame: the versions offered, or the JSON-RPC error. */
export function probeAnswerText(answer: { result?: unknown; error?: unknown } | undefined): string | undefined {
  if (!answer) return undefined
  if (answer.error && typeof answer.error === 'object') {
    const { code, message } = answer.error as { code?: unknown; message?: unknown }
    return `error ${String(code)}${typeof message === 'string' && message ? ` ${message}` : ''}`
  }
  const result = (answer.result ?? {}) as { supportedVersions?: unknown }
  const versions = Array.isArray(result.supportedVersions) ? result.supportedVersions.map(String) : []
  return versions.length ? `supports ${versions.join(', ')}` : 'a result that is not a server/discover result'
}

/** Why a probe failure is no era verdict, in words (the SDK's own message, without its prefixes). */
export function probeFailureText(error: unknown): string {
  return errorMessage(error).replace(/^Version negotiation (failed|probe failed): /, '')
}

/** The 2026 era's `_meta` keys: the log level a request asks for, and the stream a notification belongs to. */
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel'
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId'

/** A 2026 request asks for log messages at `level` and above (the era's replacement for logging/setLevel). */
export function withLogLevel(message: JSONRPCMessage, level: LogLevel): JSONRPCMessage {
  const request = message as { id?: unknown; method?: string; params?: Record<string, unknown> }
  if (request.id === undefined || typeof request.method !== 'string') return message
  const meta = (request.params?._meta ?? {}) as Record<string, unknown>
  return { ...message, params: { ...request.params, _meta: { ...meta, [LOG_LEVEL_KEY]: level } } } as JSONRPCMessage
}

/** A 2025 `initialize` refused over stdio because the server speaks only the 2026 era: said so, with what to do. */
export function only2026Refusal(error: unknown): Error | undefined {
  if (!(error instanceof McpError)) return undefined
  const hint = only2026Hint(error.code, error.data)
  return hint ? new Error(`${jsonRpcErrorWords(error.message, error.code)}${hint}`) : undefined
}

/** What to say when a server refused the 2025 era (-32022 naming only 2026 versions); undefined for any other refusal. */
function only2026Hint(code: unknown, data: unknown): string | undefined {
  if (code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined
  const supported = (data as { supported?: unknown } | undefined)?.supported
  const versions = Array.isArray(supported) ? supported.map(String) : []
  if (!versions.length || !versions.every((v) => v >= MCP_2026_VERSION)) return undefined
  return `: the server speaks only ${versions.join(', ')} (the 2026 era) and this profile asks for the 2025 era only; connect under the default profile (it negotiates) or "mcp-2026"`
}

/** The same, read from an HTTP answer's JSON-RPC error body. */
export function only2026HintInBody(body: string | undefined): string | undefined {
  try {
    const error = (JSON.parse(body ?? '') as { error?: { code?: unknown; data?: unknown } }).error
    return only2026Hint(error?.code, error?.data)
  } catch {
    return undefined
  }
}

/** JSON-RPC's "unsupported protocol version", with the versions the server does support in its data. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022
