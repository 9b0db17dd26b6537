import type { ListedSession } from '../../../shared/contract'
import { command, openRecording, showToast, useStore } from './store'

// History: the sessions kept on disk for a target, opened read-only, saved as recordings, deleted; and how much
// the sessions folder may hold.

/** How a past session is named where a connection would be (its view's id). */
export const pastViewId = (sessionId: string) => `session:${sessionId}`

/** Past sessions whose views are kept while the user goes elsewhere (the newest opened). */
const KEEP_OPENED = 2

/** Items per page of a past session as it is opened (its events, and its latest frames and log lines). */
const PAGE = 50_000

/** A target's kept sessions (or every one, without a target), newest first. */
export async function listSessions(targetId: string | undefined): Promise<ListedSession[] | undefined> {
  return command((api) => api.invoke('sessions.list', targetId === undefined ? {} : { targetId }))
}

/**
 * Opens a kept session read-only on the main area: its events read page by page into a view of its own
 * (`session:<id>`), each connection's count of frames and log lines with its latest ones, the rest read by
 * position when shown, as a live one's are. A session opened before is shown as it was read.
 */
export async function openPastSession(sessionId: string, known?: ListedSession): Promise<void> {
  const viewId = pastViewId(sessionId)
  useStore.setState({ mainView: { kind: 'past', sessionId } })
  if (useStore.getState().pastSessions[viewId]) return
  const summary = known ?? (await command((api) => api.invoke('sessions.list', {})))?.find((s) => s.id === sessionId)
  if (!summary) {
    showToast('That session is no longer kept.', 'error')
    useStore.setState({ mainView: { kind: 'target' } })
    return
  }
  useStore.setState((s) => {
    const opened = Object.keys(s.pastSessions)
    const dropped = opened.slice(0, Math.max(0, opened.length - KEEP_OPENED + 1))
    const pastSessions = { ...s.pastSessions, [viewId]: { summary, lastSeq: 0, ready: false } }
    const connections = { ...s.connections }
    for (const id of dropped) {
      delete pastSessions[id]
      delete connections[id]
    }
    return { pastSessions, connections }
  })
  const api = useStore.getState().api
  try {
    for (let afterSeq = 0; api;) {
      const page = await api.invoke('sessions.backlog', { sessionId, afterSeq, limit: PAGE })
      if (!useStore.getState().pastSessions[viewId]) return // let go meanwhile
      useStore.getState().applyPastPage(viewId, page)
      if (!page.more) return
      afterSeq = page.lastSeq
    }
  } catch (error) {
    useStore.setState((s) =>
      s.pastSessions[viewId]
        ? { pastSessions: { ...s.pastSessions, [viewId]: { ...s.pastSessions[viewId], ready: true, error: (error as Error).message } } }
        : s,
    )
  }
}

/** Forgets what was read of a past session (it is read again when opened again). */
function forgetPastSession(sessionId: string): void {
  const viewId = pastViewId(sessionId)
  useStore.setState((s) => {
    const { [viewId]: _session, ...pastSessions } = s.pastSessions
    const { [viewId]: _view, ...connections } = s.connections
    return { pastSessions, connections }
  })
}

/**
 * Saves a session (or the part between two times, epoch ms) as a recording in the library, and says so with a
 * way to open it in Replay. Resolves with its name, or undefined when it failed (said in a toast).
 */
export async function exportSession(
  sessionId: string,
  options: { name?: string; from?: number; to?: number } = {},
): Promise<string | undefined> {
  const saved = await command((api) => api.invoke('sessions.export', { sessionId, ...options }))
  if (!saved?.name) return undefined
  const name = saved.name
  showToast(`Saved "${name}" to the recordings: ${saved.events.toLocaleString()} event${saved.events === 1 ? '' : 's'}`, 'info', {
    label: 'Open in Replay',
    run: () => void openRecording(name, { show: true }),
  })
  return name
}

/** Deletes a kept session from disk; its page, if shown, goes back to the target's. Resolves true once deleted. */
export async function deleteSession(sessionId: string): Promise<boolean> {
  const done = await command((api) => api.invoke('sessions.delete', { sessionId }))
  if (!done) return false
  forgetPastSession(sessionId)
  const main = useStore.getState().mainView
  if (main.kind === 'past' && main.sessionId === sessionId) useStore.setState({ mainView: { kind: 'target' } })
  showToast('Session deleted.')
  return true
}

export function openHistorySettings(): void {
  useStore.setState({ historySettingsOpen: true, paletteOpen: false })
}

export function closeHistorySettings(): void {
  useStore.setState({ historySettingsOpen: false })
}

/** How much the sessions folder may hold, and holds. */
export async function loadRetention(): Promise<{ bytes: number; used: number } | undefined> {
  return command((api) => api.invoke('sessions.retention', {}))
}

/** Sets how much the sessions folder may hold; the oldest finished sessions over it go now (said). */
export async function saveRetention(bytes: number): Promise<{ bytes: number; used: number } | undefined> {
  const set = await command((api) => api.invoke('sessions.setRetention', { bytes }))
  if (!set) return undefined
  for (const id of set.removed) forgetPastSession(id)
  showToast(
    set.removed.length
      ? `History kept within the new size: ${set.removed.length} older session${set.removed.length === 1 ? '' : 's'} removed.`
      : 'History size set.',
  )
  return set
}
