import { z } from 'zod'
import type { AuthBeginResult, AuthStatus } from '../auth'
import { targetRefShape, TargetId } from './refs'

/** Which target to sign in to: a saved one, an unsaved one given whole, or a connection's; `scope` asks for more than the challenge named. */
const AuthBeginInput = z
  .object({
    ...targetRefShape,
    connectionId: z.string().min(1).max(300).optional(),
    scope: z.string().max(2000).optional(),
    headless: z.boolean().optional(),
  })
  .refine((r) => [r.targetId, r.target, r.connectionId].filter((x) => x !== undefined).length === 1, {
    message: 'give one of connectionId, targetId or target',
    path: ['targetId'],
  })

/** Sign-ins, their status and sign-out, per target (shared/auth): each step is an `auth` event. */
export const authInputs = {
  /**
   * Starts signing in to a target (a saved one, an unsaved one given whole, or a connection's): discovery,
   * client registration, then either the grant at once (client credentials, a refresh, `headless`) or the
   * authorization URL a host opens in the system browser, with a loopback redirect on 127.0.0.1 waiting for
   * it (state checked). Each step is an `auth` event. `scope` asks for more than the challenge named.
   */
  'auth.begin': AuthBeginInput,
  /** `auth.begin`, then the host's browser (where the engine has one, e.g. the desktop app's) opens the URL, then `auth.wait`. */
  'auth.signIn': AuthBeginInput,
  /** Waits for a sign-in `auth.begin` started to end: the target's status then (failed or cancelled: an error saying why). */
  'auth.wait': z.object({ flowId: z.string().min(1).max(100) }),
  /** Stops waiting for the browser: the loopback redirect closes and the sign-in fails as cancelled. */
  'auth.cancel': z.object({ flowId: z.string().min(1).max(100) }),
  /** Forgets everything kept to authorize a target: tokens, a dynamic registration, the client secret (unless `keepClient`). */
  'auth.signOut': z.object({ targetId: TargetId, keepClient: z.boolean().default(false) }),
  'auth.status': z.object({ targetId: TargetId }),
} as const

export interface AuthOutputs {
  'auth.begin': AuthBeginResult
  'auth.signIn': AuthStatus
  'auth.wait': AuthStatus
  'auth.cancel': { cancelled: boolean }
  'auth.signOut': AuthStatus & { cleared: string[] }
  'auth.status': AuthStatus
}
