import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { CommandError, forUi, type ClientMessage, type EngineEvent, type ServerMessage } from '../shared/contract'
import { EventBatcher } from '../shared/runtime/batcher'
import { jsonOf } from '../shared/runtime/serialized'
import type { Engine } from '../shared/engine/engine'
import { MAX_DEPTH, safeStringify } from '../shared/runtime/safeJson'
import { startAppViewServer } from './appViewServer'

export interface WebHostOptions {
  engine: Engine
  /** The built renderer (dist/renderer). */
  staticDir: string
  port?: number
  /** Fixed token for tests; otherwise a fresh random one per launch. */
  token?: string
  log?: (line: string) => void
}

export interface WebHost {
  url: string
  port: number
  token: string
  /** Where MCP App views are served: a port of their own (see ./appViewServer). */
  viewOrigin: string
  viewUrl(viewId: string): string
  close(): Promise<void>
}

/** Largest command a browser may send; anything bigger closes the socket (1009). */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024

/** The WebSocket subprotocol the engine socket speaks; the page offers its token beside it as `parallax.token.<token>`. */
export const SOCKET_PROTOCOL = 'parallax'
export const TOKEN_PROTOCOL_PREFIX = 'parallax.token.'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

/**
 * The page's policy: its own files, its socket, and frames only from the origin that serves MCP App views
 * (nothing else may be framed, and nothing may frame the page). The same as the page's own meta policy,
 * which names the desktop app's view scheme instead: the web host serves the page with this one in both.
 */
function pagePolicy(viewOrigin: string): { header: string; meta: string } {
  const meta =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src data:; connect-src 'self'; " +
    `frame-src ${viewOrigin}; object-src 'none'; base-uri 'none'; form-action 'none'`
  return { meta, header: `${meta}; frame-ancestors 'none'` }
}

/**
 * The web host: serves the UI and the engine's contract over one WebSocket, on 127.0.0.1 only.
 * Every request must come with a local Host and, when present, a local Origin, so a web page
 * elsewhere, or a DNS-rebound name, can neither read the UI nor drive the engine.
 *
 * The per-launch token, compared in constant time, is the only credential that opens the engine
 * socket, and it never lives in a cookie: browsers send 127.0.0.1 cookies to every port, so any other
 * local program the browser visits would receive it. The page keeps the token in its tab's
 * sessionStorage and presents it on the socket itself, as the subprotocol `parallax.token.<token>`
 * beside `parallax` (the one the host selects); other clients send `Authorization: Bearer <token>`.
 * The first visit (`/?token=…`) sets a cookie holding a separate random page key, which only lets the
 * page's own static files load again (a reload): it opens no socket and runs no command.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  const tokenDigest = digest(token)
  const pageKey = randomBytes(24).toString('base64url')
  const pageKeyDigest = digest(pageKey)
  const log = options.log ?? (() => {})
  let port = 0
  const cookieName = () => `parallax_page_${port}`
  const localHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  const localOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`])
  const matches = (presented: string, expected: Buffer) => timingSafeEqual(digest(presented), expected)
  const views = await startAppViewServer({ engine: options.engine, pageOrigins: () => [...localOrigins()], log })
  const policy = pagePolicy(views.origin)

  /** Host and Origin: an HTTP status to refuse with, or undefined. */
  function foreign(req: IncomingMessage, requireOrigin: boolean): { status: number; why: string } | undefined {
    if (!localHosts().has(req.headers.host ?? '')) return { status: 403, why: `foreign Host header ${JSON.stringify(req.headers.host)}` }
    const origin = req.headers.origin
    if (origin !== undefined ? !localOrigins().has(origin) : requireOrigin)
      return { status: 403, why: `foreign Origin ${JSON.stringify(origin)}` }
    return undefined
  }

  /** The page and its files: the launch token (query or bearer header) or the page key cookie. */
  function pageRefusal(req: IncomingMessage): { status: number; why: string } | undefined {
    const refused = foreign(req, false)
    if (refused) return refused
    const presented = queryToken(req) ?? bearerToken(req)
    if (presented !== undefined) return matches(presented, tokenDigest) ? undefined : { status: 401, why: 'wrong token' }
    const key = cookie(req, cookieName())
    if (key === undefined) return { status: 401, why: 'no token' }
    return matches(key, pageKeyDigest) ? undefined : { status: 401, why: 'wrong page key' }
  }

  /** The engine socket: the launch token as a subprotocol or a bearer header, nothing else. */
  function socketRefusal(req: IncomingMessage): { status: number; why: string } | undefined {
    const refused = foreign(req, true)
    if (refused) return refused
    const presented = protocolToken(req) ?? bearerToken(req)
    if (presented === undefined) {
      const other =
        queryToken(req) !== undefined ? 'a token in the URL' : cookie(req, cookieName()) !== undefined ? 'only the page cookie' : undefined
      return { status: 401, why: other ? `${other} (the engine socket takes the token as a subprotocol or a bearer header)` : 'no token' }
    }
    return matches(presented, tokenDigest) ? undefined : { status: 401, why: 'wrong token' }
  }

  const server = createServer((req, res) => {
    const refused = pageRefusal(req)
    if (refused) {
      log(`refused ${req.method} ${pathOf(req)}: ${refused.why}`)
      return sendText(
        res,
        refused.status,
        refused.status === 401 ? 'Parallax: this address needs the token printed at launch.\n' : 'Parallax: forbidden.\n',
      )
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed\n')
    // The first visit carries ?token=…: the page key cookie lets this port's files load again after the
    // page has taken the token out of the address bar. It is not the token and cannot open the socket.
    if (queryToken(req) !== undefined) res.setHeader('Set-Cookie', `${cookieName()}=${pageKey}; Path=/; HttpOnly; SameSite=Strict`)
    void serveStatic(options.staticDir, pathOf(req), res, policy)
  })

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Select `parallax`, never echo the token protocol back.
    handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
  })
  server.on('upgrade', (req, socket, head) => {
    const refused = pathOf(req) === '/ws' ? socketRefusal(req) : { status: 404, why: 'not the engine socket' }
    if (refused) {
      log(`refused WebSocket ${pathOf(req)}: ${refused.why}`)
      socket.end(
        `HTTP/1.1 ${refused.status} ${refused.status === 401 ? 'Unauthorized' : refused.status === 404 ? 'Not Found' : 'Forbidden'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      )
      return
    }
    sockets.handleUpgrade(req, socket, head, (ws) => attach(ws, options.engine, log))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  }).catch(async (error: unknown) => {
    await views.close()
    throw error
  })
  port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    viewOrigin: views.origin,
    viewUrl: views.urlOf,
    close: async () => {
      for (const ws of sockets.clients) ws.terminate()
      sockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await views.close()
    },
  }
}

/** One UI attached over a WebSocket: commands in, batched events out. */
function attach(ws: WebSocket, engine: Engine, log: (line: string) => void): void {
  // Never throws: whatever an agent sent, the message is written (values too deep to serialise are
  // replaced by a marker), so no event or answer can take the host down.
  const send = (message: ServerMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(safeStringify(message, MAX_DEPTH + 16))
  }
  // A batch is the events' JSON side by side: most were serialised once already, as their session wrote them.
  const sendEvents = (events: EngineEvent[]) => {
    if (ws.readyState === ws.OPEN) ws.send(`{"events":[${events.map((event) => jsonOf(event, MAX_DEPTH + 16)).join(',')}]}`)
  }
  const batcher = new EventBatcher(sendEvents, undefined, undefined, (error) =>
    log(`could not deliver events: ${(error as Error)?.message ?? String(error)}`),
  )
  const unsubscribe = engine.events.subscribe((event) => batcher.push(forUi(event)))
  ws.on('close', () => {
    unsubscribe()
    batcher.dispose()
  })
  // A socket error (an oversized or malformed frame: ws closes with 1009/1002) ends that socket only;
  // without a listener it would take the whole host down.
  ws.on('error', (error) => log(`WebSocket closed: ${error.message}`))
  ws.on('message', (data, isBinary) => void answer(data, isBinary))
  async function answer(data: RawData, isBinary: boolean): Promise<void> {
    let message: ClientMessage
    try {
      if (isBinary) throw new Error('binary frames are not part of the protocol')
      message = JSON.parse(data.toString()) as ClientMessage
      if (typeof message !== 'object' || message === null || typeof message.id !== 'number' || typeof message.command !== 'string') {
        throw new Error('expected {"id": number, "command": string, "input": object}')
      }
    } catch (error) {
      log(`malformed WebSocket message: ${(error as Error).message}`)
      send({ id: -1, ok: false, error: { message: `malformed message: ${(error as Error).message}`, code: 'invalid-input' } })
      return
    }
    try {
      // Events produced by the command go out before its answer, so the UI never sees a result
      // that refers to state it has not received yet.
      const result = await engine.execute(message.command, message.input)
      batcher.flush()
      send({ id: message.id, ok: true, result })
    } catch (error) {
      batcher.flush() // a failed command's events (its frames, the error in the timeline) also go first
      const code = error instanceof CommandError ? error.code : 'failed'
      const details = (error as { details?: unknown } | undefined)?.details
      send({
        id: message.id,
        ok: false,
        error: { message: (error as Error)?.message ?? String(error), code, ...(details !== undefined && { details }) },
      })
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://x').pathname
}

function queryToken(req: IncomingMessage): string | undefined {
  return new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? undefined
}

function bearerToken(req: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
}

/** The token a browser page offers as the subprotocol `parallax.token.<token>`. */
function protocolToken(req: IncomingMessage): string | undefined {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
  return offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX))?.slice(TOKEN_PROTOCOL_PREFIX.length)
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return rest.join('=')
  }
  return undefined
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}

async function serveStatic(root: string, urlPath: string, res: ServerResponse, policy: { header: string; meta: string }): Promise<void> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath)
  } catch {
    return sendText(res, 400, 'bad path\n')
  }
  const relative = normalize(decoded).replace(/^[/\\]+/, '')
  const file = join(root, relative)
  if (!file.startsWith(root + sep) || relative.split(/[/\\]/).includes('..')) return sendText(res, 404, 'not found\n')
  const info = await stat(file).catch(() => undefined)
  if (!info?.isFile()) return sendText(res, 404, 'not found\n')
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'
  const headers = {
    'Content-Type': type,
    'Content-Security-Policy': policy.header,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': type.startsWith('text/html') ? 'no-store' : 'private, max-age=3600',
  }
  if (type.startsWith('text/html')) {
    // The page's meta policy names where the desktop app serves views; here they come from this host's view port.
    const page = Buffer.from((await readFile(file, 'utf8')).replace(META_POLICY, `$1${policy.meta}$2`))
    res.writeHead(200, { ...headers, 'Content-Length': page.length })
    res.end(page)
    return
  }
  res.writeHead(200, { ...headers, 'Content-Length': info.size })
  createReadStream(file).pipe(res)
}

const META_POLICY = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/
