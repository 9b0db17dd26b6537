import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * Which connection the code running now works for. The engine opens each connection and runs each command
 * aimed at one inside its scope; everything that work starts (timers, sockets, child processes, promises)
 * inherits it, so a fault no code handled — an unhandled rejection, an uncaught exception — can be laid at
 * that connection's door (Node restores a rejected promise's context when it reports it) instead of
 * taking the host down.
 */
const scope = new AsyncLocalStorage<string>()

/** Runs `work` as work for `connectionId`. */
export function withinConnection<T>(connectionId: string, work: () => T): T {
  return scope.run(connectionId, work)
}

/** The connection the code running now works for, if any. */
export function currentConnection(): string | undefined {
  return scope.getStore()
}

/** A process-wide fault: what was thrown or rejected, and the connection whose work it came from (if any). */
export interface Fault {
  reason: unknown
  kind: 'unhandled rejection' | 'uncaught exception'
  connectionId?: string
}

/**
 * Turns the process's unhandled rejections and uncaught exceptions into faults for `sink` rather than an exit
 * (Node's default). For a host process: once per process; returns how to stop. A fault while reporting one is
 * written to stderr and dropped, so a broken sink cannot loop.
 */
export function guardProcess(sink: (fault: Fault) => void): () => void {
  let reporting = false
  const report = (kind: 'unhandled rejection' | 'uncaught exception') => (reason: unknown) => {
    if (reporting) {
      process.stderr.write(`[parallax] ${kind} while reporting a fault: ${String((reason as Error)?.stack ?? reason)}\n`)
      return
    }
    reporting = true
    try {
      sink({ reason, kind, connectionId: currentConnection() })
    } catch (error) {
      process.stderr.write(`[parallax] could not report a ${kind}: ${String((error as Error)?.stack ?? error)}\n`)
    } finally {
      reporting = false
    }
  }
  const onRejection = report('unhandled rejection')
  const onException = report('uncaught exception')
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return () => {
    process.off('unhandledRejection', onRejection)
    process.off('uncaughtException', onException)
  }
}
