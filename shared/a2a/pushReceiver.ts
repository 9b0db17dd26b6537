import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** The header the A2A SDKs send a config's token in (an `Authorization` scheme is the other way). */
export const PUSH_TOKEN_HEADER = 'x-a2a-notification-token'

/** The largest push Parallax reads: an agent's whole task, artifacts included. */
const MAX_PUSH_BYTES = 16 * 1024 * 1024

/** One POST that reached a webhook, as it came, and what the receiver answered. */
export interface PushDelivery {
  /** The webhook's URL (its path names it; the token is the secret). */
  url: string
  headers: Record<string, string>
  text: string
  bytes: number
  /** The HTTP status the receiver answered. */
  status: number
  /** Why it was not taken as a push: no token or a wrong one, too large. */
  refused?: string
}

export interface Webhook {
  url: string
  token: string
  close(): void
}

/**
 * Parallax's A2A webhook receiver: one HTTP server on 127.0.0.1 (a random port), started the first time a
 * connection asks for a webhook, closed with the engine. Each webhook is a random path and a random
 * token; a POST to it is answered 200 only with its token (the `X-A2A-Notification-Token` header, or
 * `Authorization: Bearer`), compared in constant time. Everything that reaches a webhook is handed to its
 * owner — refused or not — so the connection can show it; nothing else is ever done with a body.
 */
export class PushReceiver {
  private listening: Promise<{ server: Server; origin: string }> | undefined
  private readonly hooks = new Map<string, { token: Buffer; deliver: (delivery: PushDelivery) => void }>()

  /** A new webhook; `deliver` receives every POST to it, in order. */
  async open(deliver: (delivery: PushDelivery) => void): Promise<Webhook> {
    const { origin } = await this.listen()
    const path = `/a2a/push/${randomUUID()}`
    const token = randomBytes(32).toString('base64url')
    this.hooks.set(path, { token: Buffer.from(token), deliver })
    return { url: `${origin}${path}`, token, close: () => void this.hooks.delete(path) }
  }

  async close(): Promise<void> {
    const listening = this.listening
    this.listening = undefined
    this.hooks.clear()
    if (!listening) return
    const { server } = await listening
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  private listen(): Promise<{ server: Server; origin: string }> {
    this.listening ??= new Promise((resolve, reject) => {
      const server = createServer((req, res) => {
        void this.receive(req).then(
          ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
          () => res.writeHead(500).end(),
        )
      })
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
    })
    return this.listening
  }

  private async receive(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const hook = this.hooks.get(path)
    if (!hook) {
      req.resume()
      return { status: 404, body: { error: 'no such webhook' } }
    }
    if (req.method !== 'POST') {
      req.resume()
      return { status: 405, body: { error: 'push notifications are POSTed' } }
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]))
    const { origin } = await this.listen()
    const { text, bytes, tooLarge } = await readBody(req)
    const given = headers[PUSH_TOKEN_HEADER] || /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1] || ''
    const refused = tooLarge
      ? `larger than ${MAX_PUSH_BYTES} bytes`
      : !given
        ? 'it carried no token'
        : !sameToken(Buffer.from(given), hook.token)
          ? 'it carried a wrong token'
          : undefined
    const status = tooLarge ? 413 : refused ? 401 : 200
    hook.deliver({ url: `${origin}${path}`, headers, text, bytes, status, ...(refused && { refused }) })
    return { status, body: refused ? { error: `refused: ${refused}` } : { received: true } }
  }
}

function sameToken(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** The body as text, up to the limit (what is past it is read and dropped, so the agent gets an answer). */
async function readBody(req: IncomingMessage): Promise<{ text: string; bytes: number; tooLarge: boolean }> {
  const chunks: Buffer[] = []
  let bytes = 0
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length
    if (bytes <= MAX_PUSH_BYTES) chunks.push(chunk as Buffer)
  }
  const tooLarge = bytes > MAX_PUSH_BYTES
  return { text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), bytes, tooLarge }
}
