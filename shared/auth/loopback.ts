import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What came back to the redirect URI: the code (when `state` matched) or the server's error, and who says it sent it (`iss`, RFC 9207). */
export interface Callback {
  code?: string
  stateMatched: boolean
  error?: string
  errorDescription?: string
  iss?: string
  /** Why Parallax refuses this answer although its state matched (an `iss` naming another server). */
  refused?: string
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p>`

/**
 * The loopback redirect of a native app's sign-in (RFC 8252 §7.3): a listener on 127.0.0.1 at a port the
 * system picks, for one callback whose `state` must be the one Parallax sent. Anything else it answers
 * 404 (or 400 for a wrong state, which also ends the wait: a forged redirect is an attack, not a retry).
 */
export class LoopbackRedirect {
  private server: Server | undefined
  private settle: ((callback: Callback) => void) | undefined
  private readonly result: Promise<Callback>
  redirectUri = ''

  constructor(
    readonly state: string,
    /** Why an answer whose state matched is still refused, or undefined when it is taken. */
    private readonly judge?: (callback: Callback) => string | undefined,
  ) {
    this.result = new Promise((resolve) => (this.settle = resolve))
  }

  /**
   * Listens on `port` when it is free (the port a client was registered with, so its registration still
   * fits: many authorization servers match redirect URIs exactly), else on one the system picks.
   */
  async listen(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      if (request.method !== 'GET' || url.pathname !== '/callback') {
        response.writeHead(404).end()
        return
      }
      const stateMatched = url.searchParams.get('state') === this.state
      const error = url.searchParams.get('error') ?? undefined
      const code = url.searchParams.get('code') ?? undefined
      const iss = url.searchParams.get('iss') ?? undefined
      const callback: Callback = {
        stateMatched,
        ...(stateMatched && code && { code }),
        ...(error && { error }),
        ...(iss !== undefined && { iss }),
        ...(url.searchParams.get('error_description') && { errorDescription: url.searchParams.get('error_description')! }),
      }
      const refused = stateMatched ? this.judge?.(callback) : undefined
      if (refused) callback.refused = refused
      const ok = stateMatched && code && !error && !refused
      response
        .writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(
          ok
            ? PAGE('Signed in', 'Parallax has what it needs. You can close this tab.')
            : PAGE(
                'Sign-in failed',
                !stateMatched
                  ? 'The state did not match the request Parallax made; it was refused.'
                  : refused
                    ? 'Parallax refused the answer: it does not come from the authorization server it asked. Parallax says why.'
                    : 'The server did not authorize Parallax; Parallax says why.',
              ),
        )
      this.settle?.(callback)
    })
    const bind = (on: number) =>
      new Promise<void>((resolve, reject) => {
        this.server!.once('error', reject)
        this.server!.listen(on, '127.0.0.1', () => (this.server!.off('error', reject), resolve()))
      })
    await (port ? bind(port).catch(() => bind(0)) : bind(0))
    this.redirectUri = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`
    return this.redirectUri
  }

  /** The callback, or a rejection when `signal` aborts first (a timeout, the user's cancel). */
  wait(signal: AbortSignal): Promise<Callback> {
    return new Promise((resolve, reject) => {
      const abort = () => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)))
      if (signal.aborted) return abort()
      signal.addEventListener('abort', abort, { once: true })
      void this.result.then((callback) => {
        signal.removeEventListener('abort', abort)
        resolve(callback)
      })
    })
  }

  close(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (!server) return Promise.resolve()
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  }
}
