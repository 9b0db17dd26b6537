import { withStepUp } from '../../auth/stepUp'
import type { DomainHandlers } from './handler'

/** Connections: opened (to a saved or an unsaved target, under a profile), awaited, closed, refreshed, probed; any request sent on one, and cancelled. */
export const connectionCommands: DomainHandlers<'connections'> = {
  'connections.open': async ({ profile, purpose, ...ref }, engine) => {
    const target = await engine.resolveTarget(ref)
    const underProfile = await engine.profiles.resolve(profile)
    const connection = await engine.openConnection(target, { reuse: !ref.target && !underProfile, profile: underProfile, purpose })
    return { connectionId: connection.id }
  },
  'connections.reconnect': async ({ connectionId }, engine) => {
    const { connection, previous } = await engine.reconnect(connectionId)
    return { connectionId: connection.id, previous: { connectionId, state: previous } }
  },
  'connections.wait': async ({ connectionId }, engine) => {
    const connection = engine.connection(connectionId)
    const connected = await connection.firstOutcome()
    const failed = connected ? undefined : engine.failureOf(connection)
    return {
      connected,
      state: connection.state,
      ...(failed?.reason !== undefined && { reason: failed.reason }),
      ...(failed?.cause && { cause: failed.cause }),
      ...(failed?.approval && { approval: failed.approval }),
    }
  },
  'connections.close': async ({ connectionId }, engine) => ({ closed: await engine.closeConnection(connectionId) }),
  'connections.refresh': async ({ connectionId }, engine) => {
    await engine.connection(connectionId).rediscover()
    return { ok: true }
  },
  'connections.probe': async ({ connectionId }, engine) => ({ ok: await engine.connection(connectionId).probeNow() }),
  'connections.setKeepalive': ({ connectionId, intervalMs }, engine) => {
    engine.connection(connectionId).setKeepaliveInterval(intervalMs)
    return { intervalMs }
  },
  'connections.setLogLevel': async ({ connectionId, level }, engine) => {
    await engine.connection(connectionId).setLogLevel(level)
    return { level }
  },
  'connections.request': ({ connectionId, method, params, conversation, progress }, engine) =>
    withStepUp(method, () => engine.connection(connectionId).request(method, params, { conversation, progress })),
  'connections.cancel': ({ connectionId, requestId, reason }, engine) => ({
    cancelled: engine.connection(connectionId).cancelRequest(requestId, reason),
  }),
  'connections.loadSkill': async ({ connectionId, uri }, engine) =>
    (await import('../../mcp/skills')).loadSkill(engine.connection(connectionId), uri),
}
