import type { CallReport } from '../../../shared/contract'
import { useStore } from './store'

// The MCP App view a connection's page shows: opened when the user calls an App tool, given the call's
// outcome when it comes, closed by the user (or when the view must stop).

let nextKey = 0

/** Shows the view of an App tool the user is calling; returns the key its outcome is given under. */
export function openAppView(connectionId: string, tool: string, uri: string, args: Record<string, unknown>): number {
  const key = ++nextKey
  useStore.setState((s) => ({ appViews: { ...s.appViews, [connectionId]: { key, connectionId, tool, uri, arguments: args } } }))
  return key
}

/** The call's outcome, for the view it opened (unless another call has replaced that view since). */
export function settleAppView(connectionId: string, key: number, report: CallReport | undefined, why = 'the call failed'): void {
  useStore.setState((s) => {
    const request = s.appViews[connectionId]
    if (request?.key !== key) return {}
    const result = report?.sent && report.error === undefined ? (report.response as Record<string, unknown> | undefined) : undefined
    const outcome = result
      ? { result, arguments: report!.hooked }
      : { failed: report?.hookError?.message ?? report?.error ?? (report && !report.sent ? 'nothing was sent' : why) }
    return { appViews: { ...s.appViews, [connectionId]: { ...request, outcome } } }
  })
}

export function closeAppView(connectionId: string): void {
  useStore.setState((s) => {
    const { [connectionId]: _closed, ...rest } = s.appViews
    return { appViews: rest }
  })
}
