import { errorMessage } from '../runtime/errors'
import type { EventLog } from '../runtime/eventLog'
import type { Fault } from '../runtime/faultScope'
import type { SupervisedConnection } from '../runtime/supervisedConnection'

/**
 * A fault no code handled (an unhandled rejection, an uncaught exception: runtime/faultScope.ts) fails the
 * connection whose work it came from (`connectionOf` finds it among the engine's), saying why, and nothing
 * else: every other connection, recording and UI goes on. One outside any of the engine's connections is said
 * as the engine's own. Returns the line for the host's log, and the connection it failed.
 */
export function reportFault(
  { reason, kind, connectionId }: Fault,
  connectionOf: (connectionId: string) => SupervisedConnection | undefined,
  events: EventLog,
): { line: string; failed?: string } {
  const stack =
    (reason instanceof Error &&
      reason.stack
        ?.split('\n')
        .slice(1, 9)
        .map((line) => line.trim())) ||
    undefined
  const connection = connectionId === undefined ? undefined : connectionOf(connectionId)
  const what = `${kind}: ${errorMessage(reason)}`
  if (connection) {
    void connection.fail(`Parallax stopped this connection after an ${what}`, { fault: { kind, ...(stack && { stack }) } })
    return { line: `${connection.id} (${connection.target.name}) failed after an ${what}`, failed: connection.id }
  }
  events.emit({ type: 'log', connectionId: 'engine', source: 'engine', level: 'error', text: `Parallax met an ${what}` })
  return { line: `${what}${stack ? `\n  ${stack.join('\n  ')}` : ''}` }
}
