import type { EngineEvent, EventInput, FrameEvent, TransportKind } from '../contract'
import type { SchemaValidator } from '../hooks/validator'

/** A JSON-RPC message as an observed session's analysis reads it (nothing in it is trusted to be of any shape). */
export type Message = { id?: string | number | null; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

export type Fields = Record<string, unknown>

/** A JSON-RPC error's code and words, or undefined for a message that is not one. */
export function errorOf(message: Message): { code?: number; message: string } | undefined {
  if (message.error === undefined) return undefined
  const error = (message.error ?? {}) as { code?: unknown; message?: unknown }
  return {
    ...(typeof error.code === 'number' && { code: error.code }),
    message: typeof error.message === 'string' ? error.message : 'an error without a message',
  }
}

/** A peer's `clientInfo`, `serverInfo` or `agentInfo`: its fields, with a name and version that are text. */
export function infoOf(value: unknown): { name: string; version: string; [k: string]: unknown } | undefined {
  if (!value || typeof value !== 'object') return undefined
  const info = value as { name?: unknown; version?: unknown }
  return { ...(value as Fields), name: String(info.name ?? ''), version: String(info.version ?? '') }
}

export function objectOr(value: unknown): Fields {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {}
}

/** How the host answered a request of the server's (sampling, roots, a permission, a file): a `serverRequest` event. */
export function hostAnswer(
  connectionId: string,
  asked: { method: string; params: unknown; frameSeq: number },
  id: string | number,
  message: Message,
  ts: number,
  host = 'the host',
): EventInput {
  const error = errorOf(message)
  return {
    type: 'serverRequest',
    connectionId,
    id,
    method: asked.method,
    state: error ? 'failed' : 'answered',
    params: asked.params,
    frameSeq: asked.frameSeq,
    by: 'host',
    ...(error ? { error: { code: error.code ?? 0, message: error.message } } : { result: message.result }),
    reason: error ? `${host} answered with an error: ${error.message}` : `${host} answered`,
    ts,
  }
}

/** A request id as it travelled: a number when it was one. */
export function idOf(message: Message): string | number | undefined {
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined
}

/** What a protocol's analysis of an observed session is told, and what it may say. */
export interface AnalysisContext {
  connectionId: string
  transport: TransportKind
  emit: (event: EventInput) => EngineEvent
  validator: SchemaValidator
  /** The fields the user named as the protocol's; else the default list, or AdCP's envelope to an AdCP agent. */
  protocolFields?: readonly string[]
  /** The handshake was answered: the connection is up, and the host is who it said it is. */
  connected: (host: { name: string; version?: string } | undefined) => void
  /** A finding about the host (or the server): a warning line in the log, marked as such. */
  finding: (about: 'host' | 'server', text: string, ts: number) => void
}

/** A protocol's reading of an observed session: each message after its frame, and the session's end. */
export interface ProtocolAnalysis {
  seen(direction: 'out' | 'in', message: Message, frame: FrameEvent): void
  finish(ts: number): void
}
