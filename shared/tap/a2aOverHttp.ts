import type { FrameKind, SecretMatcher, TransportKind } from '../contract'
import { restOperation } from '../a2a/httpTap'
import type { FrameSpill } from '../runtime/frameSpill'
import type { TappedFrame } from '../runtime/jsonRpcTap'
import { isCardPath } from './cardRewrite'
import { answerHttp, jsonRpcMessages, recordedHeaders, recordedUrl, type FrameHttp } from './httpExchange'
import type { Exchange, ExchangeResponse } from './httpProxy'
import type { ObservedSession } from './observedSession'
import type { SseEvent } from './sseReader'

/** A request's frame as recorded: what its answers point back to. */
interface Sent {
  seq?: number
  ts: number
  method: string
  id: string | number
  transport: TransportKind
}

/**
 * A2A over HTTP as the tap reads it, one frame per exchange's body, as Parallax's own A2A tap records
 * them: the card (`agent-card`, over REST), JSON-RPC (each request, its answer, each stream event) and
 * HTTP+JSON (REST paths named by the operation they are: `SendMessage`, `GetTask`, …). Answers point at
 * their request (`requestSeq`) with their latency; every frame carries its exchange (`http`), secrets redacted.
 */
export class A2aOverHttp {
  private readonly sent = new Map<number, Sent>()

  constructor(
    private readonly session: ObservedSession,
    private readonly isSecret: SecretMatcher,
    private readonly spill?: FrameSpill,
  ) {}

  request(exchange: Exchange, text: string, parsed: unknown): void {
    const pathname = new URL(exchange.url).pathname
    const rpc = jsonRpcMessages(parsed)?.[0] as { method?: unknown; id?: unknown } | undefined
    const card = exchange.method === 'GET' && isCardPath(pathname)
    const transport: TransportKind = card || !rpc ? 'rest' : 'jsonrpc'
    const method = card ? 'agent-card' : typeof rpc?.method === 'string' ? rpc.method : restOperation(exchange.method, pathname)
    const id = typeof rpc?.id === 'string' || typeof rpc?.id === 'number' ? rpc.id : `http-${exchange.n}`
    const http: FrameHttp = {
      method: exchange.method,
      url: recordedUrl(exchange.url, this.isSecret),
      headers: recordedHeaders(exchange.headers, this.isSecret),
    }
    const frame = this.frame('out', 'request', { method, id, transport }, text, parsed, exchange.ts, http)
    this.sent.set(exchange.n, { seq: frame?.seq, ts: exchange.ts, method, id, transport })
  }

  body(exchange: Exchange, response: ExchangeResponse, text: string, parsed: unknown, ts: number): void {
    const sent = this.sent.get(exchange.n)
    this.sent.delete(exchange.n)
    if (!sent) return
    const failed =
      response.status >= 400 || (sent.transport === 'jsonrpc' && (parsed as { error?: unknown } | undefined)?.error !== undefined)
    this.frame('in', failed ? 'error' : 'response', sent, text, parsed, ts, answerHttp(exchange, response, this.isSecret), sent)
  }

  event(exchange: Exchange, response: ExchangeResponse, event: SseEvent, ts: number, parsed: unknown): void {
    const sent = this.sent.get(exchange.n)
    if (!sent) return
    const http = { ...answerHttp(exchange, response, this.isSecret), ...(event.id !== undefined && { eventId: event.id }) }
    const failed = event.type === 'error' || (parsed as { error?: unknown } | undefined)?.error !== undefined
    this.frame('in', failed ? 'error' : 'stream-event', sent, event.data, parsed, ts, http, sent)
  }

  end(exchange: Exchange, ts: number, why?: string): void {
    this.sent.delete(exchange.n)
    if (why) this.session.note(`${exchange.method} ${new URL(exchange.url).pathname}: ${why}`, ts, 'warn')
  }

  private frame(
    direction: 'out' | 'in',
    kind: FrameKind,
    what: Pick<Sent, 'method' | 'id' | 'transport'>,
    text: string,
    parsed: unknown,
    ts: number,
    http: FrameHttp,
    answering?: Sent,
  ) {
    const bytes = Buffer.byteLength(text)
    const oversized = this.spill?.spill(text, bytes)
    const frame: TappedFrame = {
      type: 'frame',
      ts,
      direction,
      protocol: 'a2a',
      transport: what.transport,
      kind,
      method: what.method,
      id: what.id,
      payload: oversized ? oversized.preview : (parsed ?? (text || null)),
      bytes,
      http,
      ...(answering && { latencyMs: ts - answering.ts }),
      ...(answering?.seq !== undefined && { requestSeq: answering.seq }),
      ...(oversized && { truncated: oversized.truncated }),
    }
    return this.session.frame(frame)
  }
}
