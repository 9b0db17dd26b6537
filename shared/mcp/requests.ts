import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  ClientRequestSchema,
  CompleteResultSchema,
  EmptyResultSchema,
  GetPromptResultSchema,
  GetTaskResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListTasksResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
  ServerRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { CommandError, type ConversationMessage } from '../contract'
import { detachedCut, safeStringify } from '../runtime/safeJson'
import { sentRequest, type SentRequest } from './conversationTurns'

/** What the SDK's schemas offer: `safeParse` (zod 3 and 4 alike). */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true; data?: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

/** The MCP SDK's schema for each request a client may send, by method. */
const REQUEST_SCHEMAS: ReadonlyMap<string, Schema> = new Map(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema as unknown as Schema]),
)

/** The requests only a server makes of its client (`sampling/createMessage`, `elicitation/create`, `roots/list`): never sent to one. */
const SERVER_REQUESTS: ReadonlySet<string> = new Set(
  ServerRequestSchema.options.map((schema) => schema.shape.method.value as string).filter((method) => !REQUEST_SCHEMAS.has(method)),
)

/** The schema of each method's result, where the MCP SDK has one: an answer is checked against it, and given as it came either way. */
const RESULT_SCHEMAS: Readonly<Record<string, Schema>> = {
  ping: EmptyResultSchema,
  'completion/complete': CompleteResultSchema,
  'logging/setLevel': EmptyResultSchema,
  'prompts/get': GetPromptResultSchema,
  'prompts/list': ListPromptsResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
  'resources/read': ReadResourceResultSchema,
  'resources/subscribe': EmptyResultSchema,
  'resources/unsubscribe': EmptyResultSchema,
  'tools/call': CallToolResultSchema,
  'tools/list': ListToolsResultSchema,
  'tasks/get': GetTaskResultSchema,
  'tasks/list': ListTasksResultSchema,
  'tasks/cancel': CancelTaskResultSchema,
} as unknown as Record<string, Schema>

/**
 * Checks a request the user asked for before anything is sent: never the handshake, a notification or a
 * request only a server makes; its params against the MCP SDK's schema for the method, where it has one
 * (a method it does not know — an extension, a newer spec's — is sent as given).
 */
export function checkRequest(method: string, params: Record<string, unknown> | undefined): void {
  const refused = refusal(method)
  if (refused) throw new CommandError(refused, 'invalid-input')
  const schema = REQUEST_SCHEMAS.get(method)
  if (!schema) return
  const checked = schema.safeParse({ method, ...(params !== undefined && { params }) })
  if (!checked.success)
    throw new CommandError(`invalid params for ${method} (MCP schema): ${issues(checked.error.issues).join('; ')}`, 'invalid-input')
}

/**
 * Where params break the MCP SDK's schema for the method, each with its path (for an editor to point at);
 * what `checkRequest` refuses outright (the handshake, a notification, a server's request) is one problem.
 */
export function requestProblems(method: string, params: Record<string, unknown>): { path: string; message: string }[] {
  const refused = refusal(method)
  if (refused) return [{ path: '', message: refused }]
  const checked = REQUEST_SCHEMAS.get(method)?.safeParse({ method, params })
  if (!checked || checked.success) return []
  return checked.error.issues.slice(0, 20).map((i) => ({
    path: i.path
      .slice(i.path[0] === 'params' ? 1 : 0)
      .map(String)
      .join('.'),
    message: i.message,
  }))
}

/** Why a client never sends `method` as a request of the user's (the handshake, a notification, a server's request). */
function refusal(method: string): string | undefined {
  if (method === 'initialize') return 'initialize is the handshake, made once per session: reconnect to run it again'
  if (method.startsWith('notifications/')) return `${method} is a notification, not a request: it has no answer to wait for`
  if (SERVER_REQUESTS.has(method)) return `${method} is a request a server makes of its client, not one a client sends to a server`
  return undefined
}

/** Whether the MCP SDK knows the method (then its params were checked against its schema). */
export function knownRequest(method: string): boolean {
  return REQUEST_SCHEMAS.has(method)
}

/** Where a result breaks the MCP schema for its method (nothing when the method has none, or it does not). */
export function resultProblems(method: string, result: unknown): string[] {
  const schema = RESULT_SCHEMAS[method]
  if (!schema) return []
  const checked = schema.safeParse(result)
  return checked.success ? [] : issues(checked.error.issues)
}

function issues(list: { path: PropertyKey[]; message: string }[]): string[] {
  return list.slice(0, 20).map((i) => `${i.path.map(String).join('.') || '(the whole)'}: ${i.message}`)
}

/** The longest text a request's conversation message says it in (its data and its frames hold it whole). */
const TEXT_LIMIT = 2_000

/**
 * A request of the user's as a conversation message: its method and what it is about (the prompt, the
 * resource), its params as data, the request id and progress token that progress and cancel name, and its timeout.
 */
export function mcpRequestMessage(
  method: string,
  params: Record<string, unknown> | undefined,
  timestamp: number,
  ids: SentRequest,
): ConversationMessage {
  const { _meta: _, ...shown } = params ?? {}
  const subject = subjectOf(method, shown)
  return {
    role: 'user',
    content: requestText(method, subject, shown),
    timestamp,
    metadata: {
      kind: 'request',
      timestampSource: 'observed',
      method,
      ...(subject !== undefined && { subject }),
      data: params ?? {},
      ...sentRequest(ids),
    },
  }
}

/** The server's result to a request of the user's, as a conversation message: a few words for people, the result whole as data. */
export function mcpAnswerMessage(
  method: string,
  result: unknown,
  timestamp: number,
  requestId: string | number | undefined,
): ConversationMessage {
  return {
    role: 'agent',
    content: answerText(method, result),
    timestamp,
    metadata: { kind: 'result', timestampSource: 'observed', method, data: result, ...(requestId !== undefined && { requestId }) },
  }
}

/** A result in a few words: a prompt's messages as text, what a read returned, else the result's JSON (cut). */
function answerText(method: string, result: unknown): string {
  const r = (result ?? {}) as Record<string, unknown>
  if (method === 'prompts/get' && Array.isArray(r.messages)) {
    return brief(
      (r.messages as { role?: unknown; content?: { type?: unknown; text?: unknown; resource?: { uri?: unknown } } }[])
        .map((m) => `${String(m.role)}: ${blockText(m.content)}`)
        .join('\n'),
    )
  }
  if (method === 'resources/read' && Array.isArray(r.contents)) {
    const contents = r.contents as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown }[]
    return brief(
      contents
        .map(
          (c) =>
            `${String(c.uri)}${typeof c.mimeType === 'string' ? ` (${c.mimeType})` : ''}: ${typeof c.text === 'string' ? c.text : typeof c.blob === 'string' ? `${blobBytes(c.blob).toLocaleString()} bytes` : ''}`,
        )
        .join('\n'),
    )
  }
  if (method === 'completion/complete') {
    const values = (r.completion as { values?: unknown } | undefined)?.values
    if (Array.isArray(values)) return brief(values.length ? values.map(String).join(', ') : '(no suggestions)')
  }
  const text = safeStringify(result)
  return text === '{}' ? '(an empty result: done)' : brief(text)
}

function blockText(block: { type?: unknown; text?: unknown; resource?: { uri?: unknown } } | undefined): string {
  if (!block) return ''
  if (block.type === 'text' && typeof block.text === 'string') return block.text
  if (block.type === 'resource') return `[resource ${String(block.resource?.uri)}]`
  return `[${String(block.type)}]`
}

/** How many bytes a base64 text holds. */
export function blobBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding)
}

function brief(text: string): string {
  return text.length > TEXT_LIMIT ? `${detachedCut(text, TEXT_LIMIT)}…` : text
}

/** What a request is about, said after its method: the prompt's name, the resource's URI, the completion's reference. */
function subjectOf(method: string, params: Record<string, unknown>): string | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  if (method === 'prompts/get' || method === 'tools/call') return text(params.name)
  if (method === 'resources/read' || method === 'resources/subscribe' || method === 'resources/unsubscribe') return text(params.uri)
  if (method === 'completion/complete') {
    const ref = (params.ref ?? {}) as { name?: unknown; uri?: unknown }
    return text(ref.name) ?? text(ref.uri)
  }
  if (method === 'logging/setLevel') return text(params.level)
  return undefined
}

/** A request in one line: its method, what it is about, and the rest of its params (a prompt's arguments alone). */
function requestText(method: string, subject: string | undefined, params: Record<string, unknown>): string {
  const rest =
    method === 'prompts/get' || method === 'tools/call'
      ? params.arguments
      : method === 'completion/complete'
        ? { argument: params.argument, ...(params.context !== undefined && { context: params.context }) }
        : subject !== undefined
          ? undefined
          : params
  const json =
    rest === undefined || (typeof rest === 'object' && rest !== null && Object.keys(rest).length === 0)
      ? ''
      : ` ${brief(safeStringify(rest))}`
  return `${method}${subject !== undefined ? ` ${subject}` : ''}${json}`
}
