import type { DomainHandlers } from './handler'

/** Hold in flight on an observed connection: what its tap holds, and what becomes of each held message. */
export const tapCommands: DomainHandlers<'tap'> = {
  'tap.breakpoints': ({ connectionId, breakpoints }, engine) => {
    engine.tapControl(connectionId, { breakpoints })
    return { sent: true }
  },
  'tap.decide': ({ connectionId, holdId, action, message }, engine) => {
    engine.tapControl(connectionId, action === 'drop' ? { drop: holdId } : { release: holdId, ...(message !== undefined && { message }) })
    return { sent: true }
  },
}
