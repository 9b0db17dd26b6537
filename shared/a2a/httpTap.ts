import type { FrameKind, TransportKind } from '../contract'
import { redactMap } from '../contract'
import { now } from '../runtime/clock'
import type { FrameSpill } from '../runtime/frameSpill'
import { textPreview, type TappedFrame } from '../runtime/jsonRpcTap'
import { deeperThan, MAX_DEPTH, noteWholeInFrame } from '../runtime/safeJson'

/** The agent's own error, as read off the wire: JSON-RPC `error`, or a REST error body and status. */
export interface WireError {
  code?: number
  status?: number
  reason?: string
  message: string
}

export interface HttpTapOptions {
  /** Receives every frame: request bodies, response bodies, and one frame per SSE event. */
  onFrame: (frame: TappedFrame) => void
  /** The transport label for frames that are not the agent card. */
  transport: () => TransportKind
  /** Headers added to a request, by its URL: a target's own headers go only to the origins the user allowed. */
  headers?: (url: URL) => Record<string, string>
  base?: typeof fetch
  /** Oversized bodies are kept truncated, whole in a file. */
  spill?: FrameSpill
}

/** REST paths (v1.0 and v0.3's /v1/ prefix) to the operation names JSON-RPC uses, for one vocabulary. */
const REST_OPERATIONS: [RegExp, string][] = [
  [/\/message:send$/, 'SendMessage'],
  [/\/message:stream$/, 'SendStreamingMessage'],
  [/\/tasks\/[^/]+:cancel$/, 'CancelTask'],
  [/\/tasks\/[^/]+:(subscribe|resubscribe)$/, 'SubscribeToTask'],
  [/\/tasks\/[^/]+$/, 'GetTask'],
  [/\/tasks$/, 'ListTasks'],
  [/\/extendedAgentCard$|\/card$/, 'GetExtendedAgentCard'],
]

/**
 * A `fetch` that reports every HTTP exchange as frames, for the A2A SDK's transports and card resolver.
 * Bodies are parsed as JSON where they are JSON; an SSE response is read event by event, each event
 * becoming its own `stream-event` frame before it is handed on to the SDK.
 *
 * The tap sees every answer before the SDK does: an answer (or a stream event) nested deeper than
 * `MAX_DEPTH` levels is never handed on, since nothing downstream could serialise it safely. The SDK
 * gets an error that says why (a JSON-RPC error for the same id, or an HTTP 502 / SSE error event),
 * and the frame keeps a bounded preview with the whole text aside.
 */
export function createTappedFetch(options: HttpTapOptions): typeof fetch & {
  lastError(): WireError | undefined
  /** The same fetch for a keepalive probe: its frames are marked as the probe's. */
  probe(input: string | URL, init?: RequestInit): Promise<Response>
} {
  const base = options.base ?? fetch
  let exchange = 0
  let lastError: WireError | undefined

  const tapped = async (input: string | URL | Request, init?: RequestInit, probe?: true): Promise<Response> => {
    const { url, httpMethod, headers, bodyText, send } = await outgoing(input, init, options.headers)
    const body = parseJson(bodyText)
    const isCard = httpMethod === 'GET' && /agent-card\.json$|agent\.json$/.test(url.pathname)
    const transport: TransportKind = isCard ? 'rest' : options.transport()
    const rpc = body && typeof body === 'object' ? (body as { method?: unknown; id?: unknown }) : undefined
    const method = isCard ? 'agent-card' : typeof rpc?.method === 'string' ? rpc.method : restOperation(httpMethod, url.pathname)
    const id = typeof rpc?.id === 'string' || typeof rpc?.id === 'number' ? rpc.id : `http-${++exchange}`
    const subject = skillOf(body)
    const started = now()
    const sent: TappedFrame & { seq?: number } = {
      type: 'frame',
      ts: started,
      direction: 'out',
      protocol: 'a2a',
      transport,
      kind: 'request',
      method,
      id,
      payload: body ?? (bodyText || null),
      bytes: Buffer.byteLength(bodyText),
      http: { method: httpMethod, url: url.href, headers: redactMap(Object.fromEntries(headers)) },
      ...(subject && { subject }),
      ...(probe && { probe }),
    }
    options.onFrame(sent)

    const response = await send(base)
    const http = {
      method: httpMethod,
      url: url.href,
      status: response.status,
      ...(response.statusText && { statusText: response.statusText }),
      headers: redactMap(Object.fromEntries(response.headers)),
    }
    const contentType = response.headers.get('content-type') ?? ''
    /** Records one received body (or stream event); returns why it was refused, with the frame's number. */
    const record = (
      text: string,
      parsed: unknown,
      kindIfOk: FrameKind,
      status: number,
      eventId?: string,
    ): { refused?: string; seq?: number; wireError?: WireError } => {
      const bytes = Buffer.byteLength(text)
      const refused = parsed !== undefined && deeperThan(parsed, MAX_DEPTH) ? `nested deeper than ${MAX_DEPTH} levels` : undefined
      const oversized = refused ? (options.spill?.spill(text, bytes, true) ?? textPreview(text)) : options.spill?.spill(text, bytes)
      const payload = oversized ? oversized.preview : (parsed ?? (text || null))
      const wireError = refused || kindIfOk === 'stream-event' ? undefined : errorOf(oversized ? undefined : payload, status)
      const at = now()
      const kind: FrameKind = refused || wireError ? 'error' : kindIfOk
      const truncated = oversized && (refused ? { ...oversized.truncated, refused } : oversized.truncated)
      const frame: TappedFrame & { seq?: number } = {
        type: 'frame',
        ts: at,
        direction: 'in',
        protocol: 'a2a',
        transport,
        kind,
        method,
        id,
        payload,
        bytes,
        latencyMs: at - started,
        http: eventId === undefined ? http : { ...http, eventId },
        ...(sent.seq !== undefined && { requestSeq: sent.seq }),
        ...(subject && { subject }),
        ...(probe && { probe }),
        ...(truncated && { truncated }),
      }
      options.onFrame(frame)
      return { refused, seq: frame.seq, wireError }
    }
    const refusal = (seq: number | undefined, why: string) =>
      `the agent's answer is ${why}; Parallax refused it${seq !== undefined ? ` (its text is kept whole in frame #${seq})` : ''}`

    if (contentType.includes('text/event-stream') && response.body) {
      const relayed = relayEvents(response, (event) => {
        const parsed = parseJson(event.data)
        const { refused, seq } = record(event.data, parsed, 'stream-event', response.status, event.id)
        if (!refused) return event
        const message = refusal(seq, refused)
        lastError = { status: response.status, message }
        return refusedEvent(parsed, message)
      })
      return new Response(relayed, { status: response.status, statusText: response.statusText, headers: response.headers })
    }
    const text = await response.text()
    const parsed = parseJson(text)
    const { refused, seq, wireError } = record(text, parsed, 'response', response.status)
    if (refused) {
      const message = refusal(seq, refused)
      lastError = { status: response.status, message }
      return refusedAnswer(parsed, message)
    }
    if (wireError) lastError = wireError
    if (Buffer.byteLength(text) > (options.spill?.maxFrameBytes ?? Infinity)) {
      // What a UI is shown of a large answer names the frame that holds it whole.
      noteWholeInFrame(parsed, seq)
      noteWholeInFrame((parsed as { result?: unknown } | undefined)?.result, seq)
    }
    return servingText(response, text, parsed)
  }
  return Object.assign((input: string | URL | Request, init?: RequestInit) => tapped(input, init), {
    lastError: () => lastError,
    probe: (input: string | URL, init?: RequestInit) => tapped(input, init, true),
  })
}

/**
 * The tap has read the body; the SDK reads the same text from the same response. `json()` hands it the
 * object the tap parsed for the frame (the SDK's transports only read it, building their own objects),
 * which saves parsing every answer twice. (A clone tees the stream and a new Response builds another:
 * each costs more than the rest of the tap.)
 */
function servingText(response: Response, text: string, parsed: unknown): Response {
  const bytes = () => new TextEncoder().encode(text)
  return Object.assign(response, {
    text: async () => text,
    json: async () => parsed ?? (JSON.parse(text) as unknown),
    arrayBuffer: async () => bytes().buffer,
    bytes: async () => bytes(),
    blob: async () => new Blob([text], { type: response.headers.get('content-type') ?? '' }),
  })
}

/** What the tap needs of an outgoing request, without building a Request (and cloning its body) when fetch got a URL and a string. */
async function outgoing(
  input: string | URL | Request,
  init: RequestInit | undefined,
  headersFor: (url: URL) => Record<string, string> = () => ({}),
) {
  if (!(input instanceof Request) && (init?.body === undefined || init.body === null || typeof init.body === 'string')) {
    const url = new URL(input)
    const headers = new Headers(init?.headers)
    for (const [name, value] of Object.entries(headersFor(url))) if (!headers.has(name)) headers.set(name, value)
    const sent = { ...init, headers }
    return {
      url,
      httpMethod: (init?.method ?? 'GET').toUpperCase(),
      headers,
      bodyText: (init?.body as string | undefined) ?? '',
      send: (base: typeof fetch) => base(input, sent),
    }
  }
  const request = new Request(input, init)
  for (const [name, value] of Object.entries(headersFor(new URL(request.url))))
    if (!request.headers.has(name)) request.headers.set(name, value)
  const bodyText = request.body ? await request.clone().text() : ''
  return {
    url: new URL(request.url),
    httpMethod: request.method,
    headers: request.headers,
    bodyText,
    send: (base: typeof fetch) => base(request),
  }
}

type SseEvent = { type: string; data: string; id?: string }

/**
 * The SDK's copy of an event stream: each event is read (and recorded) by the tap first, then written
 * on as `onEvent` returns it. A stream that fails (e.g. an event over the SDK's size limit) fails the
 * same way for the SDK; the SDK cancelling its copy cancels the response.
 */
function relayEvents(response: Response, onEvent: (event: SseEvent) => SseEvent): ReadableStream<Uint8Array> {
  const events = sseEvents(response.body!)[Symbol.asyncIterator]()
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await events.next()
        if (next.done) return controller.close()
        const event = onEvent(next.value)
        const lines = event.data.split('\n').map((line) => `data: ${line}`)
        const head = `${event.id !== undefined ? `id: ${event.id}\n` : ''}${event.type === 'message' ? '' : `event: ${event.type}\n`}`
        controller.enqueue(encoder.encode(`${head}${lines.join('\n')}\n\n`))
      } catch (error) {
        controller.error(error)
      }
    },
    async cancel() {
      await events.return?.(undefined)
    },
  })
}

/** Largest SSE event Parallax reads; the SDK's own limit is the same order. */
const MAX_SSE_EVENT = 64 * 1024 * 1024

/**
 * Server-sent events as the spec reads them — `event`, `data` (joined by newlines) and `id` per event,
 * comments skipped — keeping the id an event carries, which the SDK's reader drops.
 */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  let buffer = ''
  let event: SseEvent = { type: 'message', data: '' }
  let hasData = false
  const field = (line: string) => {
    const colon = line.indexOf(':')
    const name = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (name === 'event') event.type = value
    else if (name === 'data') {
      event.data = hasData ? `${event.data}\n${value}` : value
      hasData = true
    } else if (name === 'id' && !value.includes('\0')) event.id = value
  }
  const decoder = new TextDecoder()
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true })
    let end: number
    while ((end = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1))
      if (line === '') {
        if (hasData) yield event
        event = { type: 'message', data: '' }
        hasData = false
      } else if (!line.startsWith(':')) field(line)
    }
    if (buffer.length > MAX_SSE_EVENT || event.data.length > MAX_SSE_EVENT) throw new Error(`an SSE event over ${MAX_SSE_EVENT} bytes`)
  }
  if (buffer) field(buffer)
  if (hasData) yield event
}

/** The skill a message calls, when it carries a data part `{skill, input}` (the Calls panel's and replay's shape). */
function skillOf(body: unknown): string | undefined {
  const message = body as { params?: { message?: { parts?: unknown[] } }; message?: { parts?: unknown[] } } | undefined
  const parts = message?.params?.message?.parts ?? message?.message?.parts
  for (const part of Array.isArray(parts) ? parts : []) {
    const data = (part as { data?: unknown })?.data
    const skill = (data as { skill?: unknown } | undefined)?.skill ?? (data as { data?: { skill?: unknown } } | undefined)?.data?.skill
    if (typeof skill === 'string') return skill
  }
  return undefined
}

function jsonRpcId(parsed: unknown): string | number | null | undefined {
  const rpc = parsed as { jsonrpc?: unknown; id?: unknown } | undefined
  if (!rpc || typeof rpc !== 'object' || Array.isArray(rpc) || rpc.jsonrpc !== '2.0') return undefined
  return typeof rpc.id === 'string' || typeof rpc.id === 'number' || rpc.id === null ? rpc.id : undefined
}

/** What the SDK reads in place of a refused answer: a JSON-RPC error for its id, or an HTTP 502 with a REST error body. */
function refusedAnswer(parsed: unknown, message: string): Response {
  const id = jsonRpcId(parsed)
  if (id !== undefined) return Response.json({ jsonrpc: '2.0', id, error: { code: -32603, message } })
  return Response.json({ error: { code: 502, status: 'UNAVAILABLE', message } }, { status: 502, statusText: 'Bad Gateway' })
}

/** What the SDK reads in place of a refused stream event: a JSON-RPC error for its id, or an SSE error event. */
function refusedEvent(parsed: unknown, message: string): SseEvent {
  const id = jsonRpcId(parsed)
  if (id !== undefined) return { type: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }) }
  return { type: 'error', data: JSON.stringify({ code: 502, message, error: { code: 502, status: 'UNAVAILABLE', message } }) }
}

/** The operation a REST path names (`SendMessage`, `GetTask`, …), else `METHOD /path`. */
export function restOperation(httpMethod: string, path: string): string {
  for (const [pattern, name] of REST_OPERATIONS) if (pattern.test(path)) return name
  return `${httpMethod} ${path}`
}

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Finds the agent's error in a body: JSON-RPC `{error}`, or an HTTP error status with a REST error body. */
function errorOf(payload: unknown, status: number): WireError | undefined {
  const body = payload as { error?: { code?: number; message?: string; status?: string; details?: unknown[]; data?: unknown } } | undefined
  const error = body && typeof body === 'object' ? body.error : undefined
  if (!error && status < 400) return undefined
  const details = [...(Array.isArray(error?.details) ? error.details : []), ...(Array.isArray(error?.data) ? error.data : [])] as {
    reason?: string
  }[]
  return {
    code: error?.code,
    status,
    reason: details.find((d) => typeof d?.reason === 'string')?.reason ?? error?.status,
    message: error?.message ?? (typeof payload === 'string' ? payload.slice(0, 500) : `HTTP ${status}`),
  }
}
