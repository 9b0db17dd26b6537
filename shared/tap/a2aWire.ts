import { StreamResponse, type Message, type Task } from '@a2a-js/sdk'
import {
  isLegacyJsonRpcMethod,
  isV1JsonRpcMethod,
  legacyJsonRpcToV1Method,
  legacyPushNotificationToV1StreamResponse,
} from '@a2a-js/sdk/compat/v0_3'

/**
 * A2A bodies as they cross the wire, read into the SDK's objects (which the conversation projection
 * reads): v1.0 JSON (`{task}`, `{message}`, `{statusUpdate}`, `{artifactUpdate}`, a bare task) and v0.3
 * JSON (objects tagged by `kind`). Anything else is undefined: a body the tap cannot read is only a frame.
 */
export function streamResponseOf(json: unknown): StreamResponse | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined
  const body = json as Record<string, unknown>
  try {
    if (typeof body.kind === 'string') return legacyPushNotificationToV1StreamResponse(body)
    if ('task' in body || 'message' in body || 'statusUpdate' in body || 'artifactUpdate' in body) return StreamResponse.fromJSON(body)
    if (typeof body.id === 'string' && 'status' in body) return StreamResponse.fromJSON({ task: body })
  } catch {
    return undefined
  }
  return undefined
}

/** What an answer or an event says: a task or a message, or an update (undefined when it says neither). */
export function answerOf(json: unknown): Task | Message | undefined {
  const payload = streamResponseOf(json)?.payload
  return payload?.$case === 'task' || payload?.$case === 'message' ? payload.value : undefined
}

/** The message a host sends (SendMessage's `params.message`, either generation). */
export function sentMessageOf(params: unknown): Message | undefined {
  const message = (params as { message?: unknown } | undefined)?.message
  if (!message || typeof message !== 'object') return undefined
  const kinded = (message as { kind?: unknown }).kind === 'message'
  const payload = streamResponseOf(kinded ? message : { message })?.payload
  return payload?.$case === 'message' ? payload.value : undefined
}

/** A JSON-RPC method in v1.0's vocabulary (v0.3's `message/send` is `SendMessage`). */
export function v1Method(method: string): string {
  return isLegacyJsonRpcMethod(method) ? legacyJsonRpcToV1Method(method) : method
}

/** The generation a JSON-RPC method belongs to, when it is one of A2A's. */
export function methodGeneration(method: string): '1.0' | '0.3' | undefined {
  return isLegacyJsonRpcMethod(method) ? '0.3' : isV1JsonRpcMethod(method) ? '1.0' : undefined
}
