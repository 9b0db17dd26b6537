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
