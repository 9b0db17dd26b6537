import { readFileSync } from 'node:fs'

/**
 * When a process started, as the kernel counts it (Linux: /proc/<pid>/stat's `starttime`): with the pid it
 * tells a process from a later one given the same pid. Undefined where there is no /proc, or no such process.
 */
export function startMarker(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/** Whether a process is still running (the one that made a spill folder, that wrote a session): its pid is taken, by the same process where that can be told. */
export function ownerRunning(pid: number, marker: string | undefined): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // someone else's process: running
  }
  if (marker === undefined || marker === '0') return true
  const now = startMarker(pid)
  return now === undefined || now === marker
}
