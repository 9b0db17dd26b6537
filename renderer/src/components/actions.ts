import type { SavedTarget } from '../../../shared/contract'
import { command, useStore } from '../store/store'

/** Connect to a target; an imported stdio command is shown to the user and confirmed first. */
export function connect(target: SavedTarget, confirmed = false): void {
  const state = useStore.getState()
  if (target.origin === 'import' && target.spec.kind === 'mcp-stdio' && !confirmed && !state.confirmedSpawns[target.id]) {
    useStore.setState({ confirming: target })
    return
  }
  if (confirmed) useStore.setState({ confirmedSpawns: { ...state.confirmedSpawns, [target.id]: true }, confirming: undefined })
  void command((api) => api.invoke('connections.open', { targetId: target.id }))
}

export function disconnect(connectionId: string): void {
  void command((api) => api.invoke('connections.close', { connectionId }))
}

export function refresh(connectionId: string): void {
  void command((api) => api.invoke('connections.refresh', { connectionId }))
}

export function probe(connectionId: string): void {
  void command((api) => api.invoke('connections.probe', { connectionId }))
}
