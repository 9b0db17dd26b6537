import type * as Era2026 from './era2026'

/** The 2.x client's part (./era2026.ts), loaded when a connection first offers the 2026 era. */
let era2026: typeof Era2026 | undefined

export async function loadEra2026(): Promise<typeof Era2026> {
  return (era2026 ??= await import('./era2026'))
}

/** The 2.x client's part if a connection has loaded it already: reading a failure never loads it. */
export function loadedEra2026(): typeof Era2026 | undefined {
  return era2026
}
