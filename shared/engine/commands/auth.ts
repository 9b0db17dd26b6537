import { CommandError, type SavedTarget, type TargetRef } from '../../contract'
import { authTargetOf, type AuthTarget } from '../../auth/authManager'
import type { CommandContext, DomainHandlers } from './handler'

/** Sign-ins, their status and sign-out, per target (shared/auth): each step is an `auth` event. */
export const authCommands: DomainHandlers<'auth'> = {
  'auth.begin': async ({ connectionId, scope, headless, ...ref }, engine) => {
    const target = await authTarget(engine, connectionId, ref)
    return failing(engine.auth.begin(target, { connectionId, scope, headless }))
  },
  'auth.signIn': async ({ connectionId, scope, headless, ...ref }, engine) => {
    const target = await authTarget(engine, connectionId, ref)
    return failing(engine.auth.signIn(target, { connectionId, scope, headless }))
  },
  'auth.wait': ({ flowId }, engine) => failing(engine.auth.wait(flowId)),
  'auth.cancel': ({ flowId }, engine) => ({ cancelled: engine.auth.cancel(flowId) }),
  'auth.signOut': async ({ targetId, keepClient }, engine) =>
    failing(engine.auth.signOut(await authTarget(engine, undefined, { targetId }), keepClient)),
  'auth.status': async ({ targetId }, engine) => failing(engine.auth.status(await authTarget(engine, undefined, { targetId }))),
}

/** The target a sign-in is for: a connection's, a saved one (or a live connection's target of that id), or one given whole. */
async function authTarget(
  engine: CommandContext,
  connectionId: string | undefined,
  ref: { targetId?: string; target?: TargetRef['target'] },
): Promise<AuthTarget> {
  let target: SavedTarget | undefined
  if (connectionId) target = engine.connection(connectionId).target
  else if (ref.target) target = await engine.resolveTarget({ target: ref.target })
  else target = (await engine.targets.get(ref.targetId ?? '')) ?? engine.connectionsOf(ref.targetId ?? '').at(-1)?.target
  if (!target) throw new CommandError(`no target with id "${ref.targetId}"`, 'not-found')
  const auth = authTargetOf(target)
  if (!auth)
    throw new CommandError(
      `${target.name} is a stdio server: it takes its credentials from its environment, not from a sign-in`,
      'invalid-input',
    )
  return auth
}

async function failing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    throw error instanceof CommandError ? error : new CommandError((error as Error).message, 'failed')
  }
}
