import { parseSseStream } from '@a2a-js/sdk'
import type { FrameKind, TransportKind } from '../contract'
import { redactMap } from '../contract'
import { now } from '../engine/eventLog'
import type { FrameSpill } from '../engine/frameSpill'
import type { TappedFrame } from '../engine/jsonRpcTap'

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
  /** Headers added to every request (a target's auth headers, for example). */
  headers?: Record<string, string>
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
 * Bodies are parsed as JSON where they are JSON; an SSE response is split so that the SDK reads one
 * copy and each event of the other becomes its own `stream-event` frame as it arrives.
 */
export function createTappedFetch(options: HttpTapOptions): typeof fetch & { lastError(): WireError | undefined } {
  const base = options.base ?? fetch
  let exchange = 0
  let lastError: WireError | undefined

  const tapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { url, httpMethod, headers, bodyText, send } = await outgoing(input, init, options.headers)
    const body = parseJson(bodyText)
    const isCard = httpMethod === 'GET' && /agent-card\.json$|agent\.json$/.test(url.pathname)
    const transport: TransportKind = isCard ? 'rest' : options.transport()
    const rpc = body && typeof body === 'object' ? (body as { method?: unknown; id?: unknown }) : undefined
    const method = isCard ? 'agent-card' : typeof rpc?.method === 'string' ? rpc.method : restOperation(httpMethod, url.pathname)
    const id = typeof rpc?.id === 'string' || typeof rpc?.id === 'number' ? rpc.id : `http-${++exchange}`
    const started = now()
    options.onFrame({
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
    })

    const response = await send(base)
    const http = { method: httpMethod, url: url.href, status: response.status }
    const contentType = response.headers.get('content-type') ?? ''
    if (contentType.includes('text/event-stream') && response.body) {
      const [forSdk, forTap] = response.body.tee()
      void readStream(new Response(forTap, { headers: response.headers }), (data, bytes) => {
        const at = now()
        options.onFrame({ type: 'frame', ts: at, direction: 'in', protocol: 'a2a', transport, kind: 'stream-event', method, id, payload: data, bytes, latencyMs: at - started, http })
      })
      return new Response(forSdk, { status: response.status, statusText: response.statusText, headers: response.headers })
    }
    const text = await response.text()
    const bytes = Buffer.byteLength(text)
    const oversized = options.spill?.spill(text, bytes)
    const parsed = oversized ? undefined : parseJson(text)
    const payload = oversized ? oversized.preview : (parsed ?? (text || null))
    const wireError = errorOf(oversized ? undefined : payload, response.status)
    if (wireError) lastError = wireError
    const at = now()
    const kind: FrameKind = wireError ? 'error' : 'response'
    options.onFrame({ type: 'frame', ts: at, direction: 'in', protocol: 'a2a', transport, kind, method, id, payload, bytes, latencyMs: at - started, http, ...(oversized && { truncated: oversized.truncated }) })
    return servingText(response, text, parsed)
  }
  return Object.assign(tapped, { lastError: () => lastError })
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
async function outgoing(input: string | URL | Request, init: RequestInit | undefined, extra: Record<string, string> = {}) {
  if (!(input instanceof Request) && (init?.body === undefined || init.body === null || typeof init.body === 'string')) {
    const headers = new Headers(init?.headers)
    for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value)
    const sent = { ...init, headers }
    return { url: new URL(input), httpMethod: (init?.method ?? 'GET').toUpperCase(), headers, bodyText: (init?.body as string | undefined) ?? '', send: (base: typeof fetch) => base(input, sent) }
  }
  const request = new Request(input, init)
  for (const [name, value] of Object.entries(extra)) if (!request.headers.has(name)) request.headers.set(name, value)
  const bodyText = request.body ? await request.clone().text() : ''
  return { url: new URL(request.url), httpMethod: request.method, headers: request.headers, bodyText, send: (base: typeof fetch) => base(request) }
}

async function readStream(response: Response, onEvent: (data: unknown, bytes: number) => void): Promise<void> {
  try {
    for await (const event of parseSseStream(response)) onEvent(parseJson(event.data) ?? event.data, Buffer.byteLength(event.data))
  } catch {
    // The SDK's copy reports stream failures; the tap only records what arrived.
  }
}

function restOperation(httpMethod: string, path: string): string {
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
  const details = [...(Array.isArray(error?.details) ? error.details : []), ...(Array.isArray(error?.data) ? error.data : [])] as { reason?: string }[]
  return {
    code: error?.code,
    status,
    reason: details.find((d) => typeof d?.reason === 'string')?.reason ?? error?.status,
    message: error?.message ?? (typeof payload === 'string' ? payload.slice(0, 500) : `HTTP ${status}`),
  }
}
