import type { Engine } from '../shared/engine/engine'
import { guardProcess } from '../shared/runtime/faultScope'

/** The engines of the command running now (cliHost adds its own), so a fault can be laid at one of their connections. */
const engines = new Set<Engine>()

/** Counts `engine` among the command's until the returned function is called (its host closed). */
export function watchEngine(engine: Engine): () => void {
  engines.add(engine)
  return () => engines.delete(engine)
}

/**
 * Runs a command with the process guarded (shared/runtime/faultScope.ts): a fault in a connection's work fails
 * that connection, said on stderr, and the command goes on to say what it does of any connection lost; a fault
 * outside every connection fails the command (exit 2, its one JSON object with --json), its engines closed.
 */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  let fail!: (error: unknown) => void
  const faulted = new Promise<never>((_, reject) => (fail = reject))
  const unguard = guardProcess((fault) => {
    const engine = fault.connectionId === undefined ? undefined : [...engines].find((e) => e.hasConnection(fault.connectionId!))
    if (engine) process.stderr.write(`parallax: ${engine.reportFault(fault).line}\n`)
    else fail(fault.reason)
  })
  try {
    return await Promise.race([run(), faulted])
  } catch (error) {
    await Promise.all([...engines].map((engine) => engine.dispose().catch(() => {})))
    throw error
  } finally {
    unguard()
  }
}
