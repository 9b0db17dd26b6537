import type { AuthManager, AuthTarget } from './authManager'
import { parseChallenge, type CardAuthorization } from './challenge'
import { dpopProof, nonceAskedFor, offersDpop } from './dpop'
import { scopeList } from './scopes'
import { currentUsersRequest } from './stepUp'

/** Step-ups one connection may try (403 insufficient_scope): a server that keeps asking for more is not asked forever. */
export const MAX_STEP_UPS = 2

/**
 * One connection's authorization, as a fetch wrapper for its transports: the target's access token on each
 * request to the origin it was obtained for (and nowhere else), and on a 401 challenge (or a 403
 * `insufficient_scope`, a step-up) one attempt to authorize without a person before the request is sent
 * again. What needs a person is left to a sign-in: a person's request meeting a step-up waits for them
 * to sign in again (./stepUp); otherwise the connection or the request fails saying so.
 */
export class ConnectionAuth {
  private stepUps = 0
  /** Set when the server refused a token it had just granted: no more attempts on this connection. */
  private gaveUp = false
  /** The server's latest `DPoP-Nonce` (RFC 9449 §9), for the next proof. */
  private dpopNonce: string | undefined

  constructor(
    private readonly manager: AuthManager,
    private readonly target: AuthTarget,
    private readonly connectionId: string,
    /** The origins the token may go to: the target's own. */
    private readonly authorizedOrigin: string = new URL(target.url).origin,
  ) {}

  /** Why the target needs a person to sign in (for the connection's failure), if it does. */
  get required(): { required: true; why: string; scope?: string } | undefined {
    return this.manager.requiredFor(this.target.id)
  }

  noteCard(card: CardAuthorization | undefined): void {
    this.manager.noteCard(this.target.id, card)
  }

  wrap(base: typeof fetch): typeof fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.origin !== this.authorizedOrigin) return base(input, init)
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
      // A request may go more than once (with a DPoP nonce, after authorizing): each time from an unread copy.
      const pristine = input instanceof Request ? input.clone() : undefined
      const fresh = () => pristine?.clone() ?? input
      let tokenSent = false
      const sendOnce = async () => {
        const token = await this.manager.accessToken(this.target, this.connectionId)
        tokenSent = !!token
        const response = await base(fresh(), token ? await this.withToken(init, token, method, url) : init)
        this.dpopNonce = response.headers.get('dpop-nonce') ?? this.dpopNonce
        return response
      }
      const send = async () => {
        const response = await sendOnce()
        const nonce = tokenSent && (await nonceAskedFor(response))
        if (!nonce) return response
        // The server wants its nonce in the proof (RFC 9449 §9): the request goes once more, carrying it.
        this.manager.sayDpopNonce(this.target, this.connectionId, url.origin, nonce)
        await response.body?.cancel().catch(() => {})
        return sendOnce()
      }
      const response = await send()
      // Plain headers remain possible: a target with its own Authorization header and no OAuth settings is left to it.
      const ownHeader = !tokenSent && !this.target.oauth && new Headers(init?.headers).has('authorization')
      if (ownHeader || this.gaveUp || !(await this.authorize(response))) return response
      await response.body?.cancel().catch(() => {})
      const retried = await send()
      if (retried.status === 401) this.gaveUp = true
      return retried
    }
  }

  /**
   * The request's init with the target's token: `Authorization: Bearer <token>`, or for a DPoP-bound token
   * `Authorization: DPoP <token>` and a fresh proof (RFC 9449 §7).
   */
  private async withToken(init: RequestInit | undefined, token: string, method: string, url: URL): Promise<RequestInit> {
    const { tokens, dpop } = await this.manager.credentialsOf(this.target)
    const headers = new Headers(init?.headers)
    if (dpop && tokens?.token_type.toLowerCase() === 'dpop') {
      headers.set('authorization', `DPoP ${token}`)
      headers.set('dpop', dpopProof(dpop, { method, url: url.href, accessToken: token, nonce: this.dpopNonce }))
    } else headers.set('authorization', `Bearer ${token}`)
    return { ...init, headers }
  }

  /** Whether an answer asked for authorization and Parallax obtained it (so the request goes again). */
  private async authorize(response: Response): Promise<boolean> {
    if (response.status !== 401 && response.status !== 403) return false
    const header = response.headers.get('www-authenticate')
    const challenge = parseChallenge(response.status, header)
    // A DPoP nonce asked for again, right after one was given: no sign-in answers that.
    if (challenge.error === 'use_dpop_nonce') return false
    const bearer = !header || /^\s*bearer\b/i.test(header) || offersDpop(header)
    if (response.status === 401)
      return bearer && (await this.manager.authorizeQuietly(this.target, this.connectionId, challenge)) === 'authorized'
    if (challenge.error !== 'insufficient_scope') return false
    const credentials = await this.manager.credentialsOf(this.target)
    const granted = credentials.grant?.scopes ?? []
    const needed = scopeList(challenge.scope)
    if (needed.length && needed.every((s) => granted.includes(s))) {
      this.manager.sayStepUpRefused(
        this.target,
        this.connectionId,
        challenge,
        `the token already has "${challenge.scope}" and the server still refuses it: asking again would not help`,
      )
      return false
    }
    if (this.stepUps >= MAX_STEP_UPS) {
      this.manager.sayStepUpRefused(
        this.target,
        this.connectionId,
        challenge,
        `${this.stepUps} step-ups on this connection already (the limit): the server keeps asking for more`,
      )
      return false
    }
    // A person's request can wait for them to give more access (the request then goes again, ./stepUp); anything else fails.
    const request = currentUsersRequest()
    const held = credentials.grant?.requestedScopes ?? granted
    this.stepUps++
    const outcome = await this.manager.authorizeQuietly(this.target, this.connectionId, challenge, held, request?.what)
    if (typeof outcome === 'string' || !request) return outcome === 'authorized'
    // A person's answer is theirs to give as often as asked: only step-ups Parallax takes alone count.
    this.stepUps--
    request.needed = { scopes: needed, missing: needed.filter((s) => !granted.includes(s)), for: request.what }
    request.answer = outcome.person
    return false
  }
}
