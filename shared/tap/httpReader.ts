import type { Protocol, SecretMatcher, TransportKind } from '../contract'
import { restOperation } from '../a2a/httpTap'
import type { FrameSpill } from '../runtime/frameSpill'
import { A2aOverHttp } from './a2aOverHttp'
import { methodGeneration } from './a2aWire'
import { isCardPath, isExtendedCardPath } from './cardRewrite'
import { bodyText, jsonRpcMessages, parseJson, preview, recordedUrl } from './httpExchange'
import type { Exchange, ExchangeResponse, ProxyWatcher } from './httpProxy'
import { McpOverHttp } from './mcpOverHttp'
import type { ObservedSession } from './observedSession'
import { SseReader } from './sseReader'

/** Which reading an exchange gets: the protocol's, or none (OAuth, metadata documents: only a line in the log). */
type Reading = 'mcp' | 'a2a' | 'other'

interface Open {
  reading: Reading
  response?: ExchangeResponse
  sse?: SseReader
  /** A GET stream before the protocol was known: legacy SSE when its first event names an endpoint. */
  undecided?: boolean
}

/**
 * Reads what an HTTP tap relays into the observed session: recognises the protocol from the host's
 * exchanges (an A2A card fetch, an A2A method or REST path; MCP otherwise) and hands each exchange to its
 * protocol's reading. Exchanges of neither (OAuth metadata, token requests, a 401's challenge) are a
 * line in the log — method, path, status — and none of their bodies is kept.
 */
export class HttpReader implements ProxyWatcher {
  private protocol: Protocol | undefined
  private readonly open = new Map<number, Open>()
  private readonly mcp: McpOverHttp
  private readonly a2a: A2aOverHttp
  /** When the chunk being read arrived: its events' time. */
  private at = 0

  constructor(
    private readonly session: ObservedSession,
    private readonly isSecret: SecretMatcher,
    spill?: FrameSpill,
  ) {
    this.mcp = new McpOverHttp(session, isSecret)
    this.a2a = new A2aOverHttp(session, isSecret, spill)
  }

  request(exchange: Exchange): void {
    if (exchange.unread) this.session.note(`${exchange.method} ${pathOf(exchange)}: the host sent ${exchange.unread}`, exchange.ts, 'warn')
    const text = bodyText(exchange.body, exchange.headers)
    const parsed = parseJson(text)
    const reading = this.readingOf(exchange, parsed)
    const open: Open = { reading }
    this.open.set(exchange.n, open)
    if (reading === 'mcp' && !this.protocol && exchange.method === 'GET') open.undecided = true
    else if (reading !== 'other') this.recognise(reading, this.transportOf(reading, parsed))
    if (reading === 'mcp') this.mcp.request(exchange, text, parsed)
    else if (reading === 'a2a') this.a2a.request(exchange, text, parsed)
  }

  response(exchange: Exchange, response: ExchangeResponse): void {
    const open = this.open.get(exchange.n)
    if (!open) return
    open.response = response
    // An event stream the host asked for without saying so (an EventSource's GET): MCP's, unless the session is A2A.
    if (open.reading === 'other' && response.stream && exchange.method === 'GET' && this.protocol !== 'a2a') {
      open.reading = 'mcp'
      open.undecided = !this.protocol
    }
    if (response.stream && open.reading !== 'other') open.sse = new SseReader((event) => this.event(exchange, open, event))
  }

  body(exchange: Exchange, body: Buffer, ts: number, unread?: string): void {
    const open = this.open.get(exchange.n)
    this.open.delete(exchange.n)
    if (!open?.response) return
    const response = open.response
    if (open.reading === 'other') return this.other(exchange, response, ts)
    if (unread) return this.session.note(`${exchange.method} ${pathOf(exchange)}: the answer was ${unread}`, ts, 'warn')
    const text = bodyText(body, response.headers)
    if (open.reading === 'mcp') this.mcp.body(exchange, response, text, parseJson(text), ts)
    else this.a2a.body(exchange, response, text, parseJson(text), ts)
  }

  chunk(exchange: Exchange, chunk: Buffer, ts: number): void {
    const open = this.open.get(exchange.n)
    if (!open?.sse) return
    this.at = ts
    try {
      open.sse.push(chunk)
    } catch (error) {
      open.sse = undefined
      this.session.note(`${exchange.method} ${pathOf(exchange)}: the stream is no longer read (${(error as Error).message})`, ts, 'warn')
    }
  }

  end(exchange: Exchange, ts: number, why?: string): void {
    const open = this.open.get(exchange.n)
    this.open.delete(exchange.n)
    if (!open) return
    open.sse?.end()
    if (open.reading === 'mcp') this.mcp.end(exchange, ts, why)
    else if (open.reading === 'a2a') this.a2a.end(exchange, ts, why)
    else if (open.response) this.other(exchange, open.response, ts)
  }

  failed(exchange: Exchange, why: string, ts: number): void {
    this.open.delete(exchange.n)
    this.session.note(why, ts, 'error')
  }

  private event(exchange: Exchange, open: Open, event: Parameters<ConstructorParameters<typeof SseReader>[0]>[0]): void {
    if (open.undecided) {
      open.undecided = false
      this.recognise('mcp', event.type === 'endpoint' ? 'sse' : 'streamable-http')
    }
    const response = open.response!
    if (open.reading === 'mcp') this.mcp.event(exchange, response, event, this.at)
    else this.a2a.event(exchange, response, event, this.at, parseJson(event.data))
  }

  /** A card fetch, an A2A method or an A2A REST path make the session A2A; any other JSON-RPC or MCP's streams, MCP. */
  private readingOf(exchange: Exchange, parsed: unknown): Reading {
    const pathname = pathOf(exchange)
    if (exchange.method === 'GET' && isCardPath(pathname)) return 'a2a'
    const messages = jsonRpcMessages(parsed)
    if (messages) {
      const method = messages[0].method
      if (this.protocol === 'a2a' || (typeof method === 'string' && methodGeneration(method) && this.protocol !== 'mcp')) return 'a2a'
      return 'mcp'
    }
    if (this.protocol !== 'mcp' && (isA2aRest(exchange.method, pathname) || isExtendedCardPath(exchange.method, pathname))) return 'a2a'
    if (this.protocol !== 'a2a' && (exchange.method === 'DELETE' || exchange.method === 'GET') && wantsMcpStream(exchange)) return 'mcp'
    return 'other'
  }

  private transportOf(reading: Reading, parsed: unknown): TransportKind {
    if (reading === 'a2a') return jsonRpcMessages(parsed) ? 'jsonrpc' : 'rest'
    return 'streamable-http'
  }

  private recognise(protocol: Protocol, transport: TransportKind): void {
    if (this.protocol) return
    this.protocol = protocol
    this.session.recognised(protocol, transport)
  }

  /** An exchange of neither protocol: a line in the log (a 401's challenge included), its body not kept. */
  private other(exchange: Exchange, response: ExchangeResponse, ts: number): void {
    const challenge = response.headers['www-authenticate']
    const said = challenge ? `; it asks for authorization: ${preview(redacted(String(challenge), this.isSecret), 300)}` : ''
    this.session.note(
      `the host ${exchange.method} ${recordedUrl(pathOf(exchange), this.isSecret)} → HTTP ${response.status}${said}`,
      ts,
      response.status >= 400 && response.status !== 401 ? 'warn' : 'info',
    )
  }
}

/** A2A's REST operations (v1.0, and v0.3's `/v1/` paths). */
function isA2aRest(method: string, pathname: string): boolean {
  return !restOperation(method, pathname).includes(' ')
}

/** An MCP session's GET stream or its end: the host asks for an event stream, or names its session. */
function wantsMcpStream(exchange: Exchange): boolean {
  return String(exchange.headers.accept ?? '').includes('text/event-stream') || exchange.headers['mcp-session-id'] !== undefined
}

function pathOf(exchange: Exchange): string {
  return new URL(exchange.url).pathname
}

function redacted(text: string, isSecret: SecretMatcher): string {
  return recordedUrl(text, isSecret)
}
