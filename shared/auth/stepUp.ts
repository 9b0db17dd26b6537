import { AsyncLocalStorage } from 'node:async_hooks'
import type { MoreAccess } from '../contract'

/** How a person answered a step-up: signed in again (the request goes again), or not, and why. */
export type StepUpAnswer = { granted: true } | { granted: false; why: string }

/** What one user's request met: the step-up a person must give, and their answer when one can be asked. */
interface UsersRequest {
  what: string
  /** Set with `answer` by the connection's authorization when the server asked for more than the token has. */
  needed?: MoreAccess
  answer?: Promise<StepUpAnswer>
}

// The request a person made (a call, a request, a turn), as its fetches run: a connection's authorization
// sees from here whether a 403 insufficient_scope can be put to a person, who then may give more access.
// A keepalive probe or a connection's own request runs outside any, and meets the step-up as a failure.
const usersRequest = new AsyncLocalStorage<UsersRequest>()

/** The user's request whose fetch is running, if it is one. */
export function currentUsersRequest(): UsersRequest | undefined {
  return usersRequest.getStore()
}

/** The words of a step-up that was not given. */
export function moreAccessRefused(needed: MoreAccess, why: string): string {
  const scopes = needed.missing.length ? needed.missing : needed.scopes
  return `the server asks for more access (scope "${scopes.join(' ')}", HTTP 403 insufficient_scope) and ${why}`
}

/**
 * Runs a person's request (`what`: `tools/call place_order`); when the server answered it 403
 * insufficient_scope and only a person can give the scopes, waits for their answer (the UI's prompt, the
 * CLI's browser), then runs it again once they signed in again, at most `rounds` times. A step-up not
 * given ends the request as it ended, a thrown failure saying why in the person's terms.
 */
export async function withStepUp<T>(what: string, run: () => Promise<T>, rounds = 2): Promise<T> {
  for (let round = 0; ; round++) {
    const request: UsersRequest = { what }
    let failure: { error: unknown } | undefined
    let value: T | undefined
    try {
      value = await usersRequest.run(request, run)
    } catch (error) {
      failure = { error }
    }
    const { needed } = request
    if (needed) {
      const answer: StepUpAnswer =
        round < rounds
          ? ((await request.answer) ?? { granted: false, why: 'nobody was asked' })
          : { granted: false, why: `it still asks after ${rounds} sign-ins for it` }
      if (answer.granted) continue
      if (failure) throw new Error(moreAccessRefused(needed, answer.why), { cause: failure.error })
    }
    if (failure) throw failure.error
    return value as T
  }
}
