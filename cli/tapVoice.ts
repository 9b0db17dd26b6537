import { guardProcess } from '../shared/runtime/faultScope'

/**
 * How a tap speaks (on stderr: its stdout is the host's) and the guard around its process: a fault in Parallax's
 * own work is said once and the host's session goes on, as if the tap were not there. `unguard` ends the guard.
 */
export function tapVoice(): { say: (line: string) => void; unguard: () => void } {
  const say = (line: string) => process.stderr.write(`parallax tap: ${line}\n`)
  let faulted = false
  const unguard = guardProcess((fault) => {
    if (!faulted) say(`a fault in reading the session (${String((fault.reason as Error)?.message ?? fault.reason)}); relaying goes on`)
    faulted = true
  })
  return { say, unguard }
}
