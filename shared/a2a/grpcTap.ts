import {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk'
import { A2AService } from '@a2a-js/sdk/server/grpc'
import { BinaryReader } from '@bufbuild/protobuf/wire'
import { InterceptingCall, type Metadata, status as Status, type Interceptor, type StatusObject } from '@grpc/grpc-js'
import type { FrameKind, GrpcCall } from '../contract'
import { redactMap } from '../contract'
import { now } from '../runtime/clock'
import type { FrameSpill } from '../runtime/frameSpill'
import { textPreview, type TappedFrame } from '../runtime/jsonRpcTap'
import { deeperThan, MAX_DEPTH, safeStringify } from '../runtime/safeJson'
import type { WireError } from './httpTap'

export interface GrpcTapOptions {
  /** Receives every frame: the request, each message back, and the call's end (status and trailers). */
  onFrame: (frame: TappedFrame) => void
  /** The channel's target (host:port) and whether it runs over TLS, for the frames. */
  target: string
  tls: boolean
  /** Metadata added to every call: the target's headers (credentials among them), when the user allowed this origin. */
  metadata?: () => Record<string, string>
  spill?: FrameSpill
}

type Json = { toJSON(message: never): unknown }

/** Each A2A v1.0 method's request and response messages, to show them in the protocol's own JSON (as JSON-RPC and REST carry them). */
const MESSAGES: Record<string, [request: Json, response: Json | undefined]> = {
  SendMessage: [SendMessageRequest, SendMessageResponse],
  SendStreamingMessage: [SendMessageRequest, StreamResponse],
  GetTask: [GetTaskRequest, Task],
  ListTasks: [ListTasksRequest, ListTasksResponse],
  CancelTask: [CancelTaskRequest, Task],
  SubscribeToTask: [SubscribeToTaskRequest, StreamResponse],
  CreateTaskPushNotificationConfig: [TaskPushNotificationConfig, TaskPushNotificationConfig],
  GetTaskPushNotificationConfig: [GetTaskPushNotificationConfigRequest, TaskPushNotificationConfig],
  ListTaskPushNotificationConfigs: [ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse],
  GetExtendedAgentCard: [GetExtendedAgentCardRequest, AgentCard],
  DeleteTaskPushNotificationConfig: [DeleteTaskPushNotificationConfigRequest, undefined], // google.protobuf.Empty
}

/** The v1.0 service's serialisers by path: a received message's size on the wire is the size it encodes to. */
const SERIALIZERS = new Map<string, (value: unknown) => Buffer>(
  Object.values(A2AService).map((m) => [m.path, m.responseSerialize as (value: unknown) => Buffer]),
)

const STATUS_NAMES = Object.fromEntries(Object.entries(Status).map(([name, code]) => [code, name])) as Record<number, string>

/**
 * A gRPC client interceptor that reports every message of every call as frames, the way httpTap does for
 * HTTP: the request (with its metadata), each message back (a unary answer, or each event of a stream,
 * with the response headers on the first), and the call's end — its status and trailers, with the
 * agent's google.rpc.Status details decoded. Messages are shown in the protocol's JSON form; `bytes` is
 * their size on the wire.
 *
 * As the HTTP tap does, it sees every answer before the SDK: a message nested deeper than `MAX_DEPTH`
 * levels is never handed on; the call is ended with INTERNAL saying why, and its frame keeps a preview.
 */
export function createGrpcTap(options: GrpcTapOptions): { interceptor: Interceptor; lastError(): WireError | undefined } {
  let calls = 0
  let lastError: WireError | undefined
  const interceptor: Interceptor = (callOptions, nextCall) => {
    const definition = callOptions.method_definition
    const path = definition.path
    const [service, method] = path.replace(/^\//, '').split('/') as [string, string]
    const json = MESSAGES[method]
    const id = `grpc-${++calls}`
    const call: GrpcCall = { service, method, target: options.target, tls: options.tls }
    let started = now()
    let sent: (TappedFrame & { seq?: number }) | undefined
    let requestMetadata: Record<string, string> = {}
    let headers: Record<string, string> | undefined
    let refused: string | undefined
    let messages = 0

    const frame = (direction: 'out' | 'in', kind: FrameKind, payload: unknown, bytes: number, extra: Partial<TappedFrame> = {}) => {
      const at = now()
      const tapped: TappedFrame & { seq?: number } = {
        type: 'frame',
        ts: at,
        direction,
        protocol: 'a2a',
        transport: 'grpc',
        kind,
        method,
        id,
        payload,
        bytes,
        ...(direction === 'in' && { latencyMs: at - started, ...(sent?.seq !== undefined && { requestSeq: sent.seq }) }),
        ...extra,
      }
      options.onFrame(tapped)
      return tapped
    }
    /** A message as a frame payload: its JSON, bounded (an oversized one kept whole aside); `refused` when it is nested too deep to hand on. */
    const shown = (value: unknown, bytes: number): { payload: unknown; truncated?: TappedFrame['truncated']; refused?: string } => {
      const tooDeep = deeperThan(value, MAX_DEPTH) ? `nested deeper than ${MAX_DEPTH} levels` : undefined
      if (!tooDeep && bytes <= (options.spill?.maxFrameBytes ?? Infinity)) return { payload: value }
      const text = safeStringify(value, MAX_DEPTH)
      const kept = options.spill?.spill(text, Buffer.byteLength(text), !!tooDeep) ?? textPreview(text)
      return { payload: kept.preview, truncated: tooDeep ? { ...kept.truncated, refused: tooDeep } : kept.truncated, refused: tooDeep }
    }

    const intercepting: InterceptingCall = new InterceptingCall(nextCall(callOptions), {
      start(metadata, _listener, next) {
        for (const [name, value] of Object.entries(options.metadata?.() ?? {})) {
          const key = name.toLowerCase()
          try {
            if (metadata.get(key).length === 0) metadata.set(key, value)
          } catch {
            // a header gRPC cannot carry (a name or value outside its alphabet) is not sent, rather than failing the call
          }
        }
        requestMetadata = metadataMap(metadata)
        next(metadata, {
          onReceiveMetadata(received, pass) {
            headers = metadataMap(received)
            pass(received)
          },
          onReceiveMessage(message, pass) {
            // grpc-js hands a unary call's listener null when the call ended without an answer: no message, no frame.
            if (message === null || message === undefined) return pass(message)
            const value = toJson(json?.[1], message)
            const serialize = SERIALIZERS.get(path)
            const bytes = serialize ? sizeOf(() => serialize(message).length, value) : jsonBytes(value)
            const { payload, truncated, refused: why } = shown(value, bytes)
            const first = messages++ === 0
            const tapped = frame('in', definition.responseStream ? 'stream-event' : 'response', payload, bytes, {
              grpc: first && headers ? { ...call, metadata: headers } : call,
              ...(truncated && { truncated }),
            })
            if (why) {
              // Never handed on: the SDK sees the call end with a status that says why.
              refused = `the agent's answer is ${why}; Parallax refused it${tapped.seq !== undefined ? ` (its text is kept whole in frame #${tapped.seq})` : ''}`
              intercepting.cancelWithStatus(Status.INTERNAL, refused)
              // grpc-js holds the status until the message is handed on: nothing (null) is, and the status follows.
              return pass(null)
            }
            pass(message)
          },
          onReceiveStatus(status, pass) {
            const ended: StatusObject = refused ? { ...status, code: Status.INTERNAL, details: refused } : status
            const trailers = metadataMap(ended.metadata)
            const rpcStatus = statusDetails(ended.metadata)
            const name = STATUS_NAMES[ended.code] ?? String(ended.code)
            const payload = rpcStatus ?? { code: ended.code, message: ended.details }
            frame('in', ended.code === Status.OK ? 'trailers' : 'error', payload, 0, {
              grpc: {
                ...call,
                // Headers that came with no message (a call that failed at once) are shown with the trailers.
                metadata: messages === 0 && headers ? { ...headers, ...trailers } : trailers,
                status: { code: ended.code, name, ...(ended.details && { details: ended.details }) },
              },
            })
            if (ended.code !== Status.OK) {
              const reason = rpcStatus?.details.find((d) => typeof d.reason === 'string')?.reason as string | undefined
              lastError = { code: ended.code, reason: reason ?? name, message: ended.details || name }
            }
            pass(ended)
          },
        })
      },
      sendMessage(message, next) {
        started = now()
        const value = toJson(json?.[0], message)
        const bytes = sizeOf(() => definition.requestSerialize(message).length, value)
        const { payload, truncated } = shown(value, bytes)
        sent = frame('out', 'request', payload, bytes, { grpc: { ...call, metadata: requestMetadata }, ...(truncated && { truncated }) })
        next(message)
      },
    })
    return intercepting
  }
  return { interceptor, lastError: () => lastError }
}

/** A message in the protocol's JSON form where Parallax knows its type; any other (a v0.3 call) as plain JSON. */
function toJson(type: Json | undefined, message: unknown): unknown {
  if (type === undefined) return plain(message)
  try {
    return type.toJSON(message as never) ?? {}
  } catch {
    return plain(message)
  }
}

/** Plain JSON of a decoded message: bytes as base64, 64-bit integers as strings (proto3's JSON mapping does the same). */
function plain(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '…'
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64')
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1))
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, plain(v, depth + 1)]])))
  return value
}

function sizeOf(encode: () => number, value: unknown): number {
  try {
    return encode()
  } catch {
    return jsonBytes(value)
  }
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(safeStringify(value, MAX_DEPTH))
}

/** Metadata as a frame shows it: one line per key (values joined), binary values by their size, secrets redacted. */
function metadataMap(metadata: Metadata | undefined): Record<string, string> {
  if (!metadata) return {}
  const out: Record<string, string> = {}
  for (const [key, values] of Object.entries(metadata.toJSON()))
    out[key] = values.map((v) => (typeof v === 'string' ? v : `[${v.length} bytes]`)).join(', ')
  return redactMap(out)
}

/** google.rpc.Status (`grpc-status-details-bin`) in its JSON form: code, message, and the details Parallax can read (ErrorInfo). */
function statusDetails(metadata: Metadata | undefined): { code: number; message: string; details: Record<string, unknown>[] } | undefined {
  const bin = metadata?.get('grpc-status-details-bin')[0]
  if (!bin || typeof bin === 'string') return undefined
  try {
    const reader = new BinaryReader(bin)
    const status = { code: 0, message: '', details: [] as Record<string, unknown>[] }
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag()
      if (field === 1) status.code = reader.int32()
      else if (field === 2) status.message = reader.string()
      else if (field === 3) status.details.push(anyDetail(reader.bytes()))
      else reader.skip(wireType)
    }
    return status
  } catch {
    return undefined
  }
}

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo'

function anyDetail(bytes: Uint8Array): Record<string, unknown> {
  const reader = new BinaryReader(bytes)
  let typeUrl = ''
  let value: Uint8Array = new Uint8Array()
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag()
    if (field === 1) typeUrl = reader.string()
    else if (field === 2) value = reader.bytes()
    else reader.skip(wireType)
  }
  if (typeUrl !== ERROR_INFO) return { '@type': typeUrl, value: Buffer.from(value).toString('base64') }
  const info: Record<string, unknown> = { '@type': typeUrl }
  const metadata: Record<string, string> = {}
  const fields = new BinaryReader(value)
  while (fields.pos < fields.len) {
    const [field, wireType] = fields.tag()
    if (field === 1) info.reason = fields.string()
    else if (field === 2) info.domain = fields.string()
    else if (field === 3) {
      const entry = new BinaryReader(fields.bytes())
      let key = ''
      let text = ''
      while (entry.pos < entry.len) {
        const [f, w] = entry.tag()
        if (f === 1) key = entry.string()
        else if (f === 2) text = entry.string()
        else entry.skip(w)
      }
      metadata[key] = text
    } else fields.skip(wireType)
  }
  if (Object.keys(metadata).length) info.metadata = metadata
  return info
}
