import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CommandError } from '../shared/contract'
import type { Engine } from '../shared/engine/engine'

export interface AppViewServer {
  /** The origin views are served from: 127.0.0.1 on a port of its own, never the UI's. */
  origin: string
  /** Where one view's document is. */
  urlOf(viewId: string): string
  close(): Promise<void>
}

const VIEW_PATH = /^\/view\/([0-9a-f]{32})$/

/**
 * Serves MCP App views (their `ui://` documents, as the engine read them) on a second 127.0.0.1 port, so
 * a view never runs on the UI's origin. Why that is isolation, not just another address:
 *
 * - The UI's page is `http://127.0.0.1:<port>`; a view is `http://127.0.0.1:<view port>`: another origin,
 *   so the browser keeps the UI's DOM, sessionStorage (where the engine token lives) and localStorage from it.
 * - Each document is served with its policy and `sandbox allow-scripts`, so even opened on its own (not in
 *   Parallax's frame) it runs in an opaque origin of its own: no storage, no cookies, nothing of this port's;
 *   and with a Permissions Policy denying every powerful feature it did not declare.
 * - `frame-ancestors` names only the UI's origins: no other page can frame it; and a request that says it
 *   is not for a frame (`Sec-Fetch-Dest`) is refused.
 * - A view reaches Parallax only through `postMessage` to its parent, which the UI's bridge checks by the
 *   sending window, and never through the engine socket: that needs the token and a local Origin (a
 *   sandboxed view's is `null`).
 * - This port serves nothing but open views, each behind an unguessable id (128 random bits), and runs no
 *   command. What it does not give is a separate process: both ports are the same site to the browser.
 */
export async function startAppViewServer(options: {
  engine: Engine
  /** The UI's own origins, the only pages that may frame a view. */
  pageOrigins: () => string[]
  log: (line: string) => void
}): Promise<AppViewServer> {
  let port = 0
  const server = createServer((req, res) => void serve(req, res))

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = refusalOf(req, port)
    if (refusal) {
      options.log(`refused view request ${req.method} ${pathOf(req)}: ${refusal.why}`)
      return plain(res, refusal.status, `Parallax: ${refusal.why}.\n`)
    }
    const viewId = VIEW_PATH.exec(pathOf(req))![1]
    let document: { html: string; csp: string; permissionsPolicy: string }
    try {
      document = await options.engine.invoke('apps.document', { viewId })
    } catch (error) {
      const gone = error instanceof CommandError && error.code === 'not-found'
      return plain(res, gone ? 404 : 500, gone ? 'Parallax: no such view (it was closed).\n' : 'Parallax: the view cannot be served.\n')
    }
    const body = Buffer.from(document.html, 'utf8')
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': body.length,
      'Content-Security-Policy': `${document.csp}; frame-ancestors ${options.pageOrigins().join(' ')}`,
      'Permissions-Policy': document.permissionsPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    urlOf: (viewId) => `${origin}/view/${viewId}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** What this port refuses: a foreign Host (DNS rebinding), anything but GET of a view, a request not made for a frame. */
function refusalOf(req: IncomingMessage, port: number): { status: number; why: string } | undefined {
  if (![`127.0.0.1:${port}`, `localhost:${port}`].includes(req.headers.host ?? ''))
    return { status: 403, why: `foreign Host header ${JSON.stringify(req.headers.host)}` }
  if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, why: 'only GET' }
  if (!VIEW_PATH.test(pathOf(req))) return { status: 404, why: 'not a view' }
  const dest = req.headers['sec-fetch-dest']
  if (dest !== undefined && dest !== 'iframe') return { status: 403, why: `a view is shown only in Parallax's frame, not as ${dest}` }
  return undefined
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://x').pathname
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}
