import type { ApprovalRequest, SavedTarget } from '../../../shared/contract'
import { askApproval, command, useStore, type Store } from '../store/store'

/**
 * Connects to a target. The engine refuses what the user has not approved (a command it would spawn, an
 * origin the agent card points to): the user is asked, and on approval it connects again.
 */
export async function connect(target: SavedTarget): Promise<void> {
  const opened = await command((api) => api.invoke('connections.open', { targetId: target.id }))
  if (!opened) return
  const approval = await approvalAfterOpening(opened.connectionId)
  if (approval && (await askApproval(approval))) await connect(target)
}

/** Waits for the connection's first outcome; the approval it failed for, if any. */
function approvalAfterOpening(connectionId: string): Promise<ApprovalRequest | undefined> {
  return new Promise((resolve) => {
    const check = (state: Store) => {
      const view = state.connections[connectionId]
      if (!view || view.state === 'connecting') return false
      unsubscribe()
      resolve(view.state === 'failed' ? view.approval : undefined)
      return true
    }
    const unsubscribe = useStore.subscribe(check)
    check(useStore.getState())
  })
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
