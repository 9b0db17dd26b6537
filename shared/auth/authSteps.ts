import type { AuthEvent, AuthPhase, AuthStep, EventInput } from '../contract'
import { now } from '../runtime/clock'
import { errorMessage } from '../runtime/errors'
import { redactBody, redactHeaders, redactUrl } from './redactExchange'

export type EmitAuth = (event: EventInput<AuthEvent>) => void

/** The steps of one sign-in, said as `auth` events: every one carries the target, the flow and the connection that asked. */
export class AuthSteps {
  constructor(
    private readonly emitEvent: EmitAuth,
    readonly targetId: string,
    readonly flowId: string,
    readonly connectionId: string,
  ) {}

  emit(step: Omit<AuthStep, 'targetId' | 'flowId'>): void {
    this.emitEvent({ type: 'auth', connectionId: this.connectionId, targetId: this.targetId, flowId: this.flowId, ...step })
  }

  decision(phase: AuthPhase, choice: string, why: string, refused?: true, ends?: true): void {
    this.emit({
      step: 'decision',
      phase,
      summary: `${choice}: ${why}`,
      decision: { choice, why, ...(refused && { refused }), ...(ends && { ends }) },
    })
  }

  failed(phase: AuthPhase, error: unknown): void {
    const message = errorMessage(error)
    this.emit({ step: 'failed', phase, summary: `authorization failed: ${message}`, error: message })
  }

  /**
   * A fetch that says each exchange as a `request` step (redacted), in the phase its URL and body show:
   * what the MCP SDK's authorization functions fetch goes through here.
   */
  recordingFetch(base: typeof fetch, phaseHint?: () => AuthPhase): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init)
      const bodyText = typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : ''
      const contentType = request.headers.get('content-type') ?? ''
      const phase = phaseOf(request.method, new URL(request.url), bodyText) ?? phaseHint?.() ?? 'authorization'
      const shown = {
        method: request.method,
        url: redactUrl(request.url),
        headers: redactHeaders(request.headers),
        ...(bodyText && { body: redactBody(bodyText, contentType) }),
      }
      const started = now()
      let response: Response
      try {
        response = await base(input, init)
      } catch (error) {
        this.emit({
          step: 'request',
          phase,
          summary: `${request.method} ${shown.url}: no answer (${errorMessage(error)})`,
          http: { request: shown, error: errorMessage(error), durationMs: now() - started },
        })
        throw error
      }
      const text = await response
        .clone()
        .text()
        .catch(() => '')
      this.emit({
        step: 'request',
        phase,
        summary: `${request.method} ${shown.url} → HTTP ${response.status}`,
        http: {
          request: shown,
          response: {
            status: response.status,
            ...(response.statusText && { statusText: response.statusText }),
            headers: redactHeaders(response.headers),
            ...(text && { body: redactBody(text, response.headers.get('content-type') ?? '') }),
          },
          durationMs: now() - started,
        },
      })
      return response
    }
  }
}

/** The phase an exchange belongs to, from what it asks: a well-known metadata document, a registration, a token grant. */
function phaseOf(method: string, url: URL, body: string): AuthPhase | undefined {
  if (method === 'GET' && url.pathname.includes('/.well-known/oauth-protected-resource')) return 'resource-metadata'
  if (method === 'GET' && /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(url.pathname))
    return 'authorization-server-metadata'
  if (method !== 'POST') return undefined
  if (body.startsWith('{') && /"redirect_uris"|"client_name"|"grant_types"/.test(body)) return 'registration'
  const grant = /(?:^|&)grant_type=([^&]*)/.exec(body)?.[1]
  if (grant) return decodeURIComponent(grant) === 'refresh_token' ? 'refresh' : 'token'
  return undefined
}
