import type { TapBreakpoints } from '../../../shared/contract'
import { command, useStore } from './store'

// Sessions a host runs through `parallax tap`, which the engine follows live: shown, read-only, and no
// longer followed when the user says so.

/** Shows an observed connection on the main area. */
export function openObserved(connectionId: string): void {
  useStore.setState({ mainView: { kind: 'observed', connectionId } })
}

/** Stops following an observed session in this app: the host's session goes on, as it would without Parallax. */
export function stopFollowing(connectionId: string): void {
  void command((api) => api.invoke('connections.close', { connectionId }))
}

/** Tells the session's tap what to hold from now on (off: nothing, and what it holds goes on). True once the engine passed it on. */
export async function setBreakpoints(connectionId: string, breakpoints: TapBreakpoints): Promise<boolean> {
  return (await command((api) => api.invoke('tap.breakpoints', { connectionId, breakpoints }))) !== undefined
}

/** A held message: sent on as it was, or as edited (`message`), or dropped. True once the engine passed it on. */
export async function decideHold(connectionId: string, holdId: number, action: 'release' | 'drop', message?: unknown): Promise<boolean> {
  const input = { connectionId, holdId, action, ...(message !== undefined && { message }) }
  return (await command((api) => api.invoke('tap.decide', input))) !== undefined
}
