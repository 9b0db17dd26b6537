import type { ApprovalRequest, AppInfo, ParallaxApi, SavedTarget } from '../../../shared/contract'
import type { LinkState } from '../host'
import { askApproval, command, useStore, type Store, type Tab, type Theme } from './store'

// Everything the UI does to the store, by name. Components call these and never `setState`: the store
// changes only here and in store.ts (event folding, approvals, toasts).

// Where the user is

/** Selects a target in the sidebar; the main area shows its page when it shows target pages. */
export function selectTarget(targetId: string | undefined): void {
  useStore.setState({ selectedTargetId: targetId })
}

/** Selects a target and shows its page, whatever the main area showed. */
export function openTarget(targetId: string): void {
  useStore.setState({ selectedTargetId: targetId, mainView: { kind: 'target' } })
}

/** Back to the selected target's page from Compare, Replay or Side by side. */
export function showTargetPage(): void {
  useStore.setState({ mainView: { kind: 'target' } })
}

export function openTab(tab: Tab): void {
  useStore.setState({ tab })
}

export function openCompare(): void {
  useStore.setState({ mainView: { kind: 'compare' } })
}

export function openReplay(): void {
  useStore.setState({ mainView: { kind: 'replay' } })
}

/** Two connections' conversations aligned by turn; either side may still be unchosen. */
export function openSideBySide(sides: { left?: string; right?: string } = {}): void {
  useStore.setState({ mainView: { kind: 'side-by-side', ...sides } })
}

/** Opens a connection's Frames tab on one frame. */
export function showFrame(connectionId: string, seq?: number): void {
  const state = useStore.getState()
  const view = state.connections[connectionId]
  if (!view) return
  useStore.setState({
    selectedTargetId: view.targetId,
    latestByTarget: { ...state.latestByTarget, [view.targetId]: connectionId },
    mainView: { kind: 'target' },
    tab: 'frames',
    focusFrame: seq === undefined ? undefined : { connectionId, seq },
  })
}

/** The Frames tab has shown the frame `showFrame` asked for. */
export function clearFrameFocus(): void {
  useStore.setState({ focusFrame: undefined })
}

// Dialogs and messages

/** Opens the target editor on a saved target, or on a new one. */
export function startEditing(target: SavedTarget | 'new'): void {
  useStore.setState({ editing: target })
}

/** Closes the target editor; after a save or a removal, with the target to select next. */
export function closeEditor(then?: { select: string | undefined }): void {
  useStore.setState(then ? { editing: undefined, selectedTargetId: then.select } : { editing: undefined })
}

export function openShortcuts(): void {
  useStore.setState({ shortcutsOpen: true })
}

export function closeShortcuts(): void {
  useStore.setState({ shortcutsOpen: false })
}

export function dismissToast(): void {
  useStore.setState({ toast: undefined })
}

// Preferences

const THEME_KEY = 'parallax.theme'

/** The theme chosen last, else the system's. Read by the browser entry before the first render. */
export function restoreTheme(): void {
  const saved = localStorage.getItem(THEME_KEY) as Theme | null
  useStore.setState({ theme: saved ?? (matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark') })
}

export function setTheme(theme: Theme): void {
  localStorage.setItem(THEME_KEY, theme)
  useStore.setState({ theme })
}

export function toggleTheme(): void {
  setTheme(useStore.getState().theme === 'dark' ? 'light' : 'dark')
}

// The link to the engine

export function attachApi(api: ParallaxApi): void {
  useStore.setState({ api })
}

export function setLink(link: LinkState): void {
  useStore.setState({ link })
}

export function setAppInfo(info: AppInfo): void {
  useStore.setState({ info })
}

// Targets and connections

export async function reloadTargets(): Promise<void> {
  const targets = await command((api) => api.invoke('targets.list', {}))
  if (targets) useStore.setState({ targets })
}

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
