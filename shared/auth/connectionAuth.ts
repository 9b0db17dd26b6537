import type { AuthManager, AuthTarget } from './authManager'
import { parseChallenge, type CardAuthorization } from './challenge'
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
      const again = input instanceof Request ? input.clone() : input
      const token = await this.manager.accessToken(this.target, this.connectionId)
      // Plain headers remain possible: a target with its own Authorization header and no OAuth settings is left to it.
      const ownHeader = !token && !this.target.oauth && new Headers(init?.headers).has('authorization')
      const response = await base(input, withBearer(init, token))
      if (ownHeader || this.gaveUp || !(await this.authorize(response))) return response
      await response.body?.cancel().catch(() => {})
      const retried = await base(again, withBearer(init, await this.manager.accessToken(this.target, this.connectionId)))
      if (retried.status === 401) this.gaveUp = true
      return retried
    }
  }

  /** Whether an answer asked for authorization and Parallax obtained it (so the request goes again). */
  private async authorize(response: Response): Promise<boolean> {
    if (response.status !== 401 && response.status !== 403) return false
    const header = response.headers.get('www-authenticate')
    const challenge = parseChallenge(response.status, header)
    const bearer = !header || /^\s*bearer\b/i.test(header)
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

/** The request's init with `Authorization: Bearer <token>` (the user's own header stands when no token is held). */
function withBearer(init: RequestInit | undefined, token: string | undefined): RequestInit | undefined {
  if (!token) return init
  const headers = new Headers(init?.headers)
  headers.set('authorization', `Bearer ${token}`)
  return { ...init, headers }
}
