import type { EventInput, SecretMatcher } from '../contract'
import { answerHttp, jsonRpcMessages, parseJson, preview, recordedHeaders, recordedUrl, type FrameHttp } from './httpExchange'
import type { Exchange, ExchangeResponse } from './httpProxy'
import type { ObservedSession } from './observedSession'
import type { SseEvent } from './sseReader'

/**
 * MCP over HTTP as the tap reads it: streamable HTTP (each POST's message or batch, answered as JSON or
 * as an event stream; the GET stream; DELETE) and legacy SSE (the GET stream whose first event names the
 * endpoint to POST to). Every JSON-RPC message becomes the observed session's message, its frame carrying
 * the exchange (`http`: method, URL, status, headers with secrets redacted, the SSE event's id).
 */
export class McpOverHttp {
  /** What the server's answer to initialize set for the rest of the session: its session id, the version agreed. */
  private sessionId: string | undefined
  private version: string | undefined
  private initializeId: unknown
  /** Legacy SSE (its stream named an endpoint): no session id or version headers are asked of the host. */
  private legacy = false
  private readonly said = new Set<string>()

  constructor(
    private readonly session: ObservedSession,
    private readonly isSecret: SecretMatcher,
  ) {}

  request(exchange: Exchange, text: string, parsed: unknown): void {
    const http: FrameHttp = {
      method: exchange.method,
      url: recordedUrl(exchange.url, this.isSecret),
      headers: recordedHeaders(exchange.headers, this.isSecret),
    }
    if (exchange.method !== 'POST') this.checkHeaders(exchange)
    if (exchange.method === 'DELETE') return this.session.note(`the host ended its MCP session (DELETE ${path(exchange)})`, exchange.ts)
    if (exchange.method === 'GET') {
      const resuming = exchange.headers['last-event-id']
      if (resuming) this.session.note(`the host resumed its stream after event ${String(resuming)} (GET ${path(exchange)})`, exchange.ts)
      return
    }
    if (!text) return
    const messages = jsonRpcMessages(parsed)
    if (!messages) return this.session.garbage('out', `${exchange.method} ${path(exchange)}: ${preview(text)}`, exchange.ts)
    const initialize = messages.find((m) => m.method === 'initialize')
    if (initialize) this.initializeId = initialize.id
    else this.checkHeaders(exchange)
    for (const message of messages)
      this.session.message('out', message, exchange.ts, messages.length === 1 ? text : JSON.stringify(message), http)
  }

  /** A whole answer: a message or a batch (a 202 has none); anything else that is not a success is said. */
  body(exchange: Exchange, response: ExchangeResponse, text: string, parsed: unknown, ts: number): void {
    const messages = text ? jsonRpcMessages(parsed) : undefined
    if (messages) {
      const http = answerHttp(exchange, response, this.isSecret)
      for (const message of messages) {
        this.answered(message, response)
        this.session.message('in', message, ts, messages.length === 1 ? text : JSON.stringify(message), http)
      }
      return
    }
    if (exchange.method === 'DELETE' || response.status >= 400)
      this.session.note(
        `the server answered ${exchange.method} ${path(exchange)} with HTTP ${response.status}${text ? `: ${preview(text)}` : ''}`,
        ts,
        response.status >= 400 && exchange.method !== 'DELETE' ? 'warn' : 'info',
      )
    else if (text && response.status !== 202) this.session.garbage('in', `${exchange.method} ${path(exchange)}: ${preview(text)}`, ts)
  }

  /** One event of a stream: a message (or batch), or legacy SSE's `endpoint`. */
  event(exchange: Exchange, response: ExchangeResponse, event: SseEvent, ts: number): void {
    if (event.type === 'endpoint') {
      this.legacy = true
      return this.session.note(`the server named its message endpoint: ${recordedUrl(event.data, this.isSecret)}`, ts)
    }
    if (event.type !== 'message' || !event.data.trim()) return
    const messages = jsonRpcMessages(parseJson(event.data))
    if (!messages) return this.session.garbage('in', `an event of ${exchange.method} ${path(exchange)}: ${preview(event.data)}`, ts)
    const http = { ...answerHttp(exchange, response, this.isSecret), ...(event.id !== undefined && { eventId: event.id }) }
    for (const message of messages) this.answered(message, response)
    for (const message of messages)
      this.session.message('in', message, ts, messages.length === 1 ? event.data : JSON.stringify(message), http)
  }

  end(exchange: Exchange, ts: number, why?: string): void {
    if (why) this.session.note(`${exchange.method} ${path(exchange)}: ${why}`, ts, 'warn')
  }

  /** What the server's answer to initialize settles: its `Mcp-Session-Id`, and the protocol version agreed. */
  private answered(message: Record<string, unknown>, response: ExchangeResponse): void {
    if (this.initializeId === undefined || message.id !== this.initializeId) return
    this.initializeId = undefined
    const id = response.headers['mcp-session-id']
    this.sessionId = typeof id === 'string' ? id : undefined
    const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion
    this.version = typeof version === 'string' ? version : undefined
  }

  /** Findings about the host's headers after the handshake: the session id it was given, the version agreed (2025-06-18 on). */
  private checkHeaders(exchange: Exchange): void {
    if (this.legacy) return
    const what = `${exchange.method} ${path(exchange)}`
    const sessionId = exchange.headers['mcp-session-id']
    if (this.sessionId && sessionId === undefined)
      this.find(`the host sent ${what} without the Mcp-Session-Id the server gave it`, exchange.ts)
    else if (this.sessionId && sessionId !== this.sessionId)
      this.find(`the host sent ${what} with an Mcp-Session-Id the server did not give it`, exchange.ts)
    const version = exchange.headers['mcp-protocol-version']
    if (!this.version || this.version < '2025-06-18') return
    if (version === undefined)
      this.find(
        `the host sent ${what} without an MCP-Protocol-Version header (required over HTTP since 2025-06-18; ${this.version} was agreed)`,
        exchange.ts,
      )
    else if (version !== this.version)
      this.find(`the host sent ${what} with MCP-Protocol-Version ${String(version)}, though ${this.version} was agreed`, exchange.ts)
  }

  /** A finding about the host, said once. */
  private find(text: string, ts: number): void {
    if (this.said.has(text)) return
    this.said.add(text)
    this.session.event({ type: 'log', source: 'engine', level: 'warn', oddity: true, about: 'host', text, ts } as EventInput)
  }
}

function path(exchange: Exchange): string {
  const url = new URL(exchange.url)
  return url.pathname
}
