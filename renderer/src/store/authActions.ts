import type { AuthEvent, AuthStatus } from '../../../shared/contract'
import { openOutside } from './openOutside'
import { connect } from './actions'
import { command, showToast, useStore } from './store'

// Signing in to a target and out again. The steps themselves arrive as auth events (store.authSteps).

/** The target's authorization as the engine holds it now (no token: scopes, expiry, client, where secrets are kept). */
export function authStatus(targetId: string): Promise<AuthStatus | undefined> {
  const api = useStore.getState().api
  return api ? api.invoke('auth.status', { targetId }).catch(() => undefined) : Promise.resolve(undefined)
}

/**
 * Signs in: discovery and registration run in the engine; when a person must approve, the authorization
 * page opens in the system browser and the engine's loopback redirect on 127.0.0.1 waits for it. Once
 * signed in, a session that failed for want of it connects again.
 */
export async function signIn(targetId: string, options: { scope?: string; headless?: boolean } = {}): Promise<void> {
  const { scope, headless } = options
  const begun = await command((api) =>
    api.invoke('auth.begin', { targetId, ...(scope && { scope }), ...(headless !== undefined && { headless }) }),
  )
  if (!begun) return
  if (begun.state === 'waiting' && begun.authorizationUrl) openSignInPage(begun.authorizationUrl)
  const status = await command((api) => api.invoke('auth.wait', { flowId: begun.flowId }))
  if (!status?.signedIn) return
  showToast(`Signed in${status.grant?.scopes.length ? `: ${status.grant.scopes.join(' ')}` : ''}`)
  const { connections, latestByTarget, targets } = useStore.getState()
  const session = connections[latestByTarget[targetId]]
  const target = targets.find((t) => t.id === targetId)
  if (target && session && (session.state === 'failed' || session.state === 'closed')) await connect(target)
}

/** The authorization page, in the system browser (the desktop app hands such windows to it); a URL the one rule refuses is said, not opened. */
export function openSignInPage(url: string): void {
  const refused = openOutside(url)
  if (refused) showToast(refused, 'error')
}

/** Stops waiting for the browser: the loopback redirect closes and the sign-in ends as cancelled. */
export function cancelSignIn(flowId: string): void {
  void command((api) => api.invoke('auth.cancel', { flowId }))
}

/** Forgets the target's tokens and registration (the client secret too unless kept), and says what was cleared. */
export async function signOut(targetId: string, keepClient = false): Promise<AuthStatus | undefined> {
  const done = await command((api) => api.invoke('auth.signOut', { targetId, keepClient }))
  if (done) showToast(done.cleared.length ? `Signed out: cleared ${done.cleared.join(', ')}` : 'Nothing was kept for this target')
  return done
}

/** A sign-in still under way: its flow has begun and has neither been granted nor failed. */
export function pendingFlow(steps: AuthEvent[]): AuthEvent | undefined {
  const last = steps.at(-1)
  if (!last || last.step === 'granted' || last.step === 'failed' || last.step === 'signed-out') return undefined
  return steps.findLast((s) => s.flowId === last.flowId && s.step === 'authorize')
}

/**
 * A step-up waiting for the person: the server asked for more scopes than the token has (the `more-access`
 * step), and its flow has neither been granted nor failed; with the sign-in's `authorize` step once it began.
 */
export function pendingMoreAccess(steps: AuthEvent[]): { ask: AuthEvent; signingIn?: AuthEvent } | undefined {
  const at = steps.findLastIndex((s) => s.step === 'more-access')
  if (at < 0) return undefined
  const ask = steps[at]
  const after = steps.slice(at + 1)
  if (after.some((s) => s.step === 'signed-out' || (s.flowId === ask.flowId && (s.step === 'granted' || s.step === 'failed'))))
    return undefined
  return { ask, signingIn: after.findLast((s) => s.flowId === ask.flowId && s.step === 'authorize') }
}
