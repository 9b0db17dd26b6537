import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Readable, Writable } from 'node:stream'
import { now } from '../runtime/clock'
import { EXTENDED_CARD_METHODS, isCardPath, isExtendedCardPath, rewriteCard, rewriteCardAnswer, rewriteEndpointEvent } from './cardRewrite'
import type { HttpGate } from './httpHolds'

/** One request the host made through the proxy, as the watcher reads it. */
export interface Exchange {
  /** Its number, in the order requests arrived. */
  n: number
  method: string
  /** Where it went: the upstream's origin and the path the host asked for. */
  url: string
  headers: IncomingHttpHeaders
  /** The request's body (empty when it was over the limit the tap reads: `unread` then says so). */
  body: Buffer
  unread?: string
  ts: number
}

export interface ExchangeResponse {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  ts: number
  /** An event stream (read chunk by chunk), else a whole body. */
  stream: boolean
}

/** What the proxy tells whoever watches it, after the bytes have gone on, in the order things happened. */
export interface ProxyWatcher {
  request(exchange: Exchange): void
  response(exchange: Exchange, response: ExchangeResponse): void
  /** A whole body (the answer was not an event stream); `unread` when it was over the limit the tap reads. */
  body(exchange: Exchange, body: Buffer, ts: number, unread?: string): void
  /** A chunk of an event stream. */
  chunk(exchange: Exchange, chunk: Buffer, ts: number): void
  /** An event stream ended (`why` when it was cut off). */
  end(exchange: Exchange, ts: number, why?: string): void
  /** The upstream could not be reached, or failed before answering: the host got a 502 saying `why`. */
  failed(exchange: Exchange, why: string, ts: number): void
}

export interface ProxyOptions {
  /** The upstream's origin (`http://host:port`): every request goes to the same path there. */
  upstream: string
}

/** A watcher that reads nothing (until one is set). */
const NOBODY: ProxyWatcher = { request() {}, response() {}, body() {}, chunk() {}, end() {}, failed() {} }

/** Headers that belong to one hop (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** Largest body the tap reads (a larger one is relayed whole, and said to be unread). */
const MAX_READ_BODY = 64 * 1024 * 1024

/** Largest card the proxy reads whole to rewrite (a larger answer is relayed as it is). */
const MAX_CARD = 4 * 1024 * 1024

/**
 * A reverse proxy on 127.0.0.1 for a host's HTTP session with a server or an agent: every request goes
 * to the same path on the upstream origin, headers passed through (hop-by-hop ones dropped, `Host` the
 * upstream's), and the answer comes back as it arrives (event streams chunk by chunk, backpressure kept
 * both ways). Bytes go on first; the watcher reads copies afterwards, on the next turn of the event loop,
 * so the host never waits on it, and a watcher that throws does not stop relaying. Two answers are
 * changed so the host stays on the proxy: an A2A agent card's interface URLs (and the extended card's),
 * and a legacy MCP SSE stream's `endpoint` event when it names an absolute URL at the upstream.
 */
export class HttpProxy {
  private server: Server | undefined
  private origin = ''
  private exchanges = 0
  private readonly queue: (() => void)[] = []
  private scheduled = false
  private watcherFailed = false
  /** Who reads the exchanges (set once the proxy listens, when its address is known). */
  watcher: ProxyWatcher = NOBODY
  /** Told the first time the watcher fails (it is asked again with what comes next). */
  onWatcherFailure: ((error: unknown) => void) | undefined
  /** Hold in flight: asked about each POSTed body and each JSON answer while breakpoints are on. */
  gate: HttpGate | undefined

  constructor(private readonly options: ProxyOptions) {}

  /** Listens on `host:port` (0: a free port); resolves to the proxy's origin. */
  async listen(host: string, port: number): Promise<string> {
    const server = createServer((req, res) => this.relay(req, res))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
    this.server = server
    const address = server.address() as AddressInfo
    this.origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
    return this.origin
  }

  /** Stops listening and cuts every open exchange (what is queued is read first). */
  async close(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = undefined
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    this.drain()
  }

  private relay(req: IncomingMessage, res: ServerResponse): void {
    const gate = this.gate
    if (!gate?.holding('out') || req.method !== 'POST') return this.send(req, res)
    // Held in flight: the whole body is read, and goes on (perhaps edited) when the user or the timeout says.
    wholeBody(req).then(
      async (body) => {
        const decided = await gate.decide('out', body)
        if (decided) this.send(req, res, decided)
        else res.destroy() // dropped: an HTTP request cannot just vanish, so its exchange is cut
      },
      () => res.destroy(),
    )
  }

  /** Relays one request (`body`: already read whole, e.g. released from a hold) and its answer. */
  private send(req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
    const path = req.url ?? '/'
    const url = `${this.options.upstream}${path.startsWith('/') ? path : `/${path}`}`
    const exchange: Exchange = {
      n: ++this.exchanges,
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      body: Buffer.alloc(0),
      ts: now(),
    }
    const target = new URL(url)
    const headers = passable(req.headers)
    headers.host = target.host
    if (body) headers['content-length'] = String(body.length)
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const upstream = send(target, { method: exchange.method, headers })
    const sent = new BodyCopy()
    if (body) {
      upstream.end(body)
      exchange.body = body
      this.later(() => this.watcher.request(exchange))
    } else {
      // An upstream that fails while the host is still sending: the rest of the body is read and dropped, so the 502 can be sent.
      flow(
        req,
        upstream,
        (chunk) => sent.push(chunk),
        undefined,
        () => void req.removeAllListeners('data').resume(),
      )
      req.on('end', () => {
        upstream.end()
        exchange.body = sent.whole()
        if (sent.unread) exchange.unread = sent.unread
        this.later(() => this.watcher.request(exchange))
      })
    }
    // The host gave up (closed its stream, went away): the upstream exchange ends too.
    const host = { gone: false }
    res.on('close', () => {
      if (res.writableFinished) return
      host.gone = true
      upstream.destroy()
    })
    upstream.on('error', (error) => {
      const why = `Parallax tap could not reach ${url}: ${error.message}`
      if (!res.headersSent) {
        const body = JSON.stringify({ error: { code: 502, status: 'UNAVAILABLE', message: why } })
        res.writeHead(502, 'Bad Gateway', { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
        const ts = now()
        // Read after the request itself (which may still be arriving).
        if (body || req.readableEnded) this.later(() => this.watcher.failed(exchange, why, ts))
        else req.once('end', () => this.later(() => this.watcher.failed(exchange, why, ts)))
      } else res.destroy()
    })
    upstream.on('response', (answer) => this.answer(exchange, path, body ?? sent.whole(), answer, res, host))
  }

  private answer(
    exchange: Exchange,
    path: string,
    sent: Buffer,
    answer: IncomingMessage,
    res: ServerResponse,
    host: { gone: boolean },
  ): void {
    const contentType = String(answer.headers['content-type'] ?? '')
    const stream = contentType.includes('text/event-stream')
    const response: ExchangeResponse = {
      status: answer.statusCode ?? 502,
      statusText: answer.statusMessage ?? '',
      headers: answer.headers,
      ts: now(),
      stream,
    }
    const headers = passable(answer.headers)
    const watcher = this.watcher
    this.later(() => watcher.response(exchange, response))
    if (!stream && answer.statusCode === 200 && carriesCard(exchange.method, path, sent) && !answer.headers['content-encoding'])
      return this.rewritten(exchange, answer, res, headers, response)
    if (!stream && this.gate?.holding('in') && contentType.includes('json') && !answer.headers['content-encoding'])
      return this.heldAnswer(exchange, answer, res, headers, response, this.gate)
    res.writeHead(response.status, response.statusText, headers)
    if (stream) res.flushHeaders()
    const body = new BodyCopy()
    let first: FirstEvent | undefined = stream ? new FirstEvent(this.options.upstream, this.origin) : undefined
    flow(
      answer,
      res,
      (chunk) => {
        if (!stream) return body.push(chunk)
        const ts = now()
        this.later(() => watcher.chunk(exchange, chunk, ts))
      },
      (chunk) => {
        if (!first) return chunk
        const out = first.take(chunk)
        if (first.done) first = undefined
        return out
      },
    )
    answer.on('end', () => {
      const ts = now()
      res.end(first ? first.rest() : undefined)
      this.later(() => (stream ? watcher.end(exchange, ts) : watcher.body(exchange, body.whole(), ts, body.unread)))
    })
    answer.on('error', () => res.destroy())
    answer.on('aborted', () => {
      const ts = now()
      res.destroy()
      this.later(() => watcher.end(exchange, ts, host.gone ? undefined : 'the upstream cut the answer off'))
    })
  }

  /** A card (or an answer holding one): read whole, its interface URLs moved to the proxy, sent with its new length. */
  private rewritten(
    exchange: Exchange,
    answer: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string | string[]>,
    response: ExchangeResponse,
  ): void {
    const chunks: Buffer[] = []
    let size = 0
    answer.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
    })
    answer.on('error', () => res.destroy())
    answer.on('end', () => {
      const original = Buffer.concat(chunks)
      let body = original
      if (size <= MAX_CARD) {
        const parsed = parseJson(original.toString('utf8'))
        const changed =
          exchange.method === 'GET'
            ? rewriteCard(parsed, this.options.upstream, this.origin)
            : rewriteCardAnswer(parsed, this.options.upstream, this.origin)
        if (changed !== undefined) {
          body = Buffer.from(JSON.stringify(changed))
          delete headers.etag
        }
      }
      headers['content-length'] = String(body.length)
      res.writeHead(response.status, response.statusText, headers).end(body)
      const ts = now()
      // What the watcher reads is what the agent said; the host got the same card, on the proxy.
      this.later(() => this.watcher.body(exchange, original, ts))
    })
  }

  /** An answer read whole and held in flight when it matches the breakpoints: sent on as decided, or its exchange cut. */
  private heldAnswer(
    exchange: Exchange,
    answer: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string | string[]>,
    response: ExchangeResponse,
    gate: HttpGate,
  ): void {
    wholeBody(answer).then(
      async (original) => {
        const body = await gate.decide('in', original)
        if (!body) return void res.destroy()
        headers['content-length'] = String(body.length)
        res.writeHead(response.status, response.statusText, headers).end(body)
        const ts = now()
        this.later(() => this.watcher.body(exchange, body, ts))
      },
      () => res.destroy(),
    )
  }

  /** Runs `read` after this turn's bytes have gone on, in order. */
  private later(read: () => void): void {
    this.queue.push(read)
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.drain())
    }
  }

  private drain(): void {
    this.scheduled = false
    for (const read of this.queue.splice(0)) {
      try {
        read()
      } catch (error) {
        if (!this.watcherFailed) this.onWatcherFailure?.(error)
        this.watcherFailed = true
      }
    }
  }
}

/** A message's whole body. */
function wholeBody(from: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    from.on('data', (chunk: Buffer) => chunks.push(chunk))
    from.once('end', () => resolve(Buffer.concat(chunks)))
    from.once('error', reject)
  })
}

/** Whether an answer carries an A2A card: the card's own paths, the REST extended card, or a JSON-RPC call for it. */
function carriesCard(method: string, path: string, sent: Buffer): boolean {
  const pathname = path.split('?')[0]
  if (method === 'GET') return isCardPath(pathname) || isExtendedCardPath(method, pathname)
  if (method !== 'POST' || sent.length > 64 * 1024 || !sent.includes('Extended')) return false
  const rpc = parseJson(sent.toString('utf8')) as { method?: unknown } | undefined
  return typeof rpc?.method === 'string' && EXTENDED_CARD_METHODS.has(rpc.method)
}

/**
 * Copies `from` into `to` as it comes (`change` may alter a chunk on its way), with backpressure; `copy`
 * sees what came. When `to` fails, `from` is destroyed unless `failed` says what to do instead.
 */
function flow(
  from: Readable,
  to: Writable,
  copy: (chunk: Buffer) => void,
  change: (chunk: Buffer) => Buffer = (c) => c,
  failed: () => void = () => from.destroy(),
): void {
  from.on('data', (chunk: Buffer) => {
    const out = change(chunk)
    if (out.length && !to.write(out)) {
      from.pause()
      to.once('drain', () => from.resume())
    }
    copy(chunk)
  })
  to.on('error', failed)
}

/** Headers to pass on: all but the hop-by-hop ones (and those the `Connection` header names). */
function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value
  return out
}

/**
 * The first event of a stream, held until it is whole (it is no use to the host before), so a legacy MCP
 * `endpoint` event naming the upstream can be moved to the proxy; everything after goes on untouched.
 */
class FirstEvent {
  done = false
  private held = Buffer.alloc(0)

  constructor(
    private readonly upstream: string,
    private readonly proxy: string,
  ) {}

  take(chunk: Buffer): Buffer {
    this.held = Buffer.concat([this.held, chunk])
    const ends = [this.held.indexOf('\n\n'), this.held.indexOf('\r\n\r\n')].filter((i) => i !== -1)
    if (!ends.length && this.held.length < 64 * 1024) return Buffer.alloc(0)
    this.done = true
    const end = ends.length ? Math.min(...ends) : -1
    if (end === -1) return this.held
    const cut = end + (this.held[end] === 0x0d ? 4 : 2)
    const rewritten = rewriteEndpointEvent(this.held.subarray(0, cut).toString('utf8'), this.upstream, this.proxy)
    return rewritten === undefined ? this.held : Buffer.concat([Buffer.from(rewritten), this.held.subarray(cut)])
  }

  /** What is held when the stream ends before its first event did. */
  rest(): Buffer {
    this.done = true
    return this.held
  }
}

/** A copy of a body for reading, up to the limit (past it, nothing is kept and `unread` says why). */
class BodyCopy {
  private chunks: Buffer[] = []
  private size = 0
  unread: string | undefined

  push(chunk: Buffer): void {
    if (this.unread) return
    this.size += chunk.length
    if (this.size <= MAX_READ_BODY) return void this.chunks.push(chunk)
    this.chunks = []
    this.unread = `a body over ${MAX_READ_BODY / 1024 / 1024} MB (relayed whole, not read)`
  }

  whole(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
