import type {
  A2aBindingPreference,
  ApprovalRequest,
  AppInfo,
  CompareResult,
  ConnectionState,
  LogLevel,
  ParallaxApi,
  RequestAnswer,
  SavedTarget,
  ServerRequestAnswer,
} from '../../../shared/contract'
import { connectionNumber, isSession } from './connectionView'
import { engineRowSource, setRowSource } from './rowLists'
import {
  askApproval,
  command,
  openRecording,
  showToast,
  useStore,
  type CallSurface,
  type CompareSide,
  type Draft,
  type EntryKind,
  type FramesDrawer,
  type FramesFilter,
  type LinkState,
  type MainView,
  type ReplayPage,
  type Store,
  type Tab,
  type Theme,
} from './store'

export { openRecording }

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

/**
 * Shows a connection's frames in a drawer over the current view (Compare, Replay stay as they are): all
 * of them, on one frame when `seq` is given, or one turn's (`range`).
 */
export function showFrame(connectionId: string, seq?: number, more: Omit<FramesDrawer, 'connectionId'> = {}): void {
  if (!useStore.getState().connections[connectionId]) return
  useStore.setState({
    framesDrawer: { connectionId, ...more },
    focusFrame: seq === undefined ? undefined : { connectionId, seq },
  })
}

export function closeFramesDrawer(): void {
  useStore.setState({ framesDrawer: undefined, focusFrame: undefined })
}

/** Keeps what a target's Frames list is filtered on, for when the user comes back to it. */
export function keepFramesFilter(targetId: string, filter: FramesFilter): void {
  useStore.setState((s) => ({ framesFilters: { ...s.framesFilters, [targetId]: filter } }))
}

/** The frames list has shown the frame `showFrame` asked for. */
export function clearFrameFocus(): void {
  useStore.setState({ focusFrame: undefined })
}

// Replay and Compare pages: what the user picked stays while they go elsewhere

export function setReplayOptions(options: Partial<Omit<ReplayPage, 'recording'>>): void {
  useStore.setState((s) => ({ replayPage: { ...s.replayPage, ...options } }))
}

/** Forgets the recording on the Replay page when it is gone (deleted, renamed). */
export function forgetReplayRecording(name: string): void {
  useStore.setState((s) => (s.replayPage.recording?.name === name ? { replayPage: { ...s.replayPage, recording: undefined } } : s))
}

export function setCompareSide(side: 'a' | 'b', value: CompareSide): void {
  useStore.setState((s) => ({ comparePage: { ...s.comparePage, [side]: value } }))
}

export function setCompareResult(result: CompareResult | undefined): void {
  useStore.setState((s) => ({ comparePage: { ...s.comparePage, result } }))
}

// Where the user was, across a reload of the page

const VIEW_KEY = 'parallax.view'

/**
 * Restores what the page showed before a reload (the selected target, the page, the tab), and keeps it
 * up to date from now on; the session connection itself comes back with the engine's backlog.
 */
export function rememberView(): void {
  try {
    const saved = JSON.parse(sessionStorage.getItem(VIEW_KEY) ?? 'null') as {
      targetId?: string
      main?: MainView['kind']
      tab?: Tab
      sessionId?: string
      connectionId?: string
    } | null
    if (saved)
      useStore.setState({
        selectedTargetId: saved.targetId,
        ...(saved.main &&
          saved.main !== 'side-by-side' &&
          saved.main !== 'past' &&
          saved.main !== 'observed' && { mainView: { kind: saved.main } }),
        ...(saved.main === 'past' && saved.sessionId && { mainView: { kind: 'past', sessionId: saved.sessionId } }),
        ...(saved.main === 'observed' && saved.connectionId && { mainView: { kind: 'observed', connectionId: saved.connectionId } }),
        ...(saved.tab && { tab: saved.tab }),
      })
  } catch {
    // nothing usable saved: start afresh
  }
  useStore.subscribe((s, prev) => {
    if (s.selectedTargetId === prev.selectedTargetId && s.mainView === prev.mainView && s.tab === prev.tab) return
    const sessionId = s.mainView.kind === 'past' ? s.mainView.sessionId : undefined
    const connectionId = s.mainView.kind === 'observed' ? s.mainView.connectionId : undefined
    sessionStorage.setItem(
      VIEW_KEY,
      JSON.stringify({ targetId: s.selectedTargetId, main: s.mainView.kind, tab: s.tab, sessionId, connectionId }),
    )
  })
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

export function openPalette(): void {
  useStore.setState({ paletteOpen: true, shortcutsOpen: false })
}

export function closePalette(): void {
  useStore.setState({ paletteOpen: false })
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

/** The engine the app talks to: its commands, and where every frame and log list fetches the rows it does not hold. */
export function attachApi(api: ParallaxApi): void {
  useStore.setState({ api })
  setRowSource(
    engineRowSource({
      frames: (input) => api.invoke('frames.rows', input),
      logs: (input) => api.invoke('logs.rows', input),
    }),
  )
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
 * Connects to a target: its live session if it has one, else a new session (saying so when it replaces
 * an earlier one). The engine refuses what the user has not approved (a command it would spawn, an
 * origin the agent card points to): the user is asked, and on approval it connects again.
 */
export async function connect(target: SavedTarget, profile?: string): Promise<void> {
  const state = useStore.getState()
  const before = state.connections[state.latestByTarget[target.id]]
  // Under a profile of the user's choosing (this time only), or the target's own.
  const opened = await command((api) => api.invoke('connections.open', { targetId: target.id, ...(profile && { profile }) }))
  if (!opened) return
  if (before && before.id !== opened.connectionId)
    await settle(target, opened.connectionId, { connectionId: before.id, state: before.state })
  else await askIfRefused(target, opened.connectionId)
}

/** The user's answer to what a connection's server asks (sampling, elicitation); false when the engine refused it (the toast says why). */
export async function answerServerRequest(connectionId: string, id: string | number, answer: ServerRequestAnswer): Promise<boolean> {
  return (await command((api) => api.invoke('serverRequests.answer', { connectionId, id, answer }))) !== undefined
}

/**
 * Replaces a connection with a new session to its target, whatever its state (a live one is closed
 * first: over stdio, its server process stops and a new one starts), and says what it did.
 */
export async function reconnect(connectionId: string): Promise<void> {
  const view = useStore.getState().connections[connectionId]
  const target = useStore.getState().targets.find((t) => t.id === view?.targetId)
  const done = await command((api) => api.invoke('connections.reconnect', { connectionId }))
  if (done && target) await settle(target, done.connectionId, done.previous)
}

/**
 * Which of an agent card's interfaces a target uses: saves the target's `spec.binding` (`auto` lets
 * Parallax choose) and, when `connectionId` is the target's session, reconnects it over that binding.
 * Built-in demos are read-only: the engine refuses to change them, and says so.
 */
export async function chooseBinding(connectionId: string, binding: A2aBindingPreference): Promise<void> {
  const { connections, targets } = useStore.getState()
  const view = connections[connectionId]
  const target = targets.find((t) => t.id === view?.targetId)
  if (!view || target?.spec.kind !== 'a2a') return
  const { origin: _origin, ...draft } = target
  const spec = { ...target.spec, binding }
  const saved = await command((api) => api.invoke('targets.save', { ...draft, spec }))
  if (!saved) return
  await reloadTargets()
  if (isSession(view)) await reconnect(connectionId)
}

/** After a new session replaced `previous`: a toast once it connected (or failed), the approval asked for if that is why. */
async function settle(target: SavedTarget, connectionId: string, previous: { connectionId: string; state: ConnectionState }) {
  if (await askIfRefused(target, connectionId)) return
  const view = useStore.getState().connections[connectionId]
  const was =
    previous.state === 'failed' ? 'had failed' : previous.state === 'closed' ? 'was closed' : `was ${previous.state}; it is closed now`
  if (view?.state === 'failed') showToast(`Reconnect failed: ${view.reason ?? 'unknown error'}`, 'error')
  else
    showToast(
      `Reconnected: new connection ${connectionNumber(connectionId)} (the previous one, ${connectionNumber(previous.connectionId)}, ${was})`,
    )
}

/** Waits for the connection's first outcome; when it was refused for want of approval, asks, and connects again on yes. */
async function askIfRefused(target: SavedTarget, connectionId: string): Promise<boolean> {
  const approval = await approvalAfterOpening(connectionId)
  if (!approval) return false
  if (await askApproval(approval)) await connect(target)
  return true
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

/** Notes that a target was edited while `connectionId` was its live session: its page says the edit applies on reconnect. */
export function noteEditedWhileConnected(targetId: string, connectionId: string): void {
  useStore.setState((s) => ({ editedWhileConnected: { ...s.editedWhileConnected, [targetId]: connectionId } }))
}

/** The user read the notice of the restart at `at` on this connection: it is not said again (a later restart is). */
export function dismissRestartNotice(connectionId: string, at: number): void {
  useStore.setState((s) => ({ dismissedRestarts: { ...s.dismissedRestarts, [connectionId]: at } }))
}

/** Asks an MCP server for its log messages at `level` and above (`logging/setLevel`); the log shows the level it agreed to. */
export async function setLogLevel(connectionId: string, level: LogLevel): Promise<void> {
  await command((api) => api.invoke('connections.setLogLevel', { connectionId, level }))
}

/** Closes connections a feature opened and the user kept (a replay's), and their processes. */
export function closeConnections(connectionIds: string[]): void {
  for (const connectionId of connectionIds) disconnect(connectionId)
}

/** Records the connection from now on into the library (its state now comes first, as context). */
export function startRecording(connectionId: string): void {
  void command((api) => api.invoke('recordings.start', { connectionId }))
}

/** Stops recording; the toast that says what was saved comes with the engine's `recording` event. */
export function stopRecording(connectionId: string): void {
  void command((api) => api.invoke('recordings.stop', { connectionId }))
}

// The call surface: one place to act on what a server offers

const NO_SURFACE: CallSurface = { kind: 'tool', picked: {}, drafts: {} }

function changeSurface(targetId: string, change: (surface: CallSurface) => Partial<CallSurface>): void {
  useStore.setState((s) => {
    const surface = s.callSurfaces[targetId] ?? NO_SURFACE
    return { callSurfaces: { ...s.callSurfaces, [targetId]: { ...surface, ...change(surface) } } }
  })
}

/** Opens the call surface on an entry (a Catalog entry's Call, Get, Read). */
export function actOn(targetId: string, kind: EntryKind, name: string): void {
  changeSurface(targetId, (s) => ({ kind, picked: { ...s.picked, [kind]: name } }))
  useStore.setState({ tab: 'calls' })
}

/** Shows one kind of entry on the call surface (the entry picked of that kind before, if any). */
export function pickEntryKind(targetId: string, kind: EntryKind): void {
  changeSurface(targetId, () => ({ kind }))
}

export function pickEntry(targetId: string, kind: EntryKind, name: string): void {
  changeSurface(targetId, (s) => ({ picked: { ...s.picked, [kind]: name } }))
}

/** Keeps what the user typed for an entry (`kind:name`), so switching away and back finds it as it was. */
export function keepDraft(targetId: string, key: string, draft: Draft): void {
  changeSurface(targetId, (s) => ({ drafts: { ...s.drafts, [key]: draft } }))
}

/**
 * Sends any MCP request (a prompt got, a resource read, a subscription, …): the exchange is frames and
 * conversation messages. `progress` unset: the engine asks for progress as `asksProgress` says.
 */
export function sendRequest(
  connectionId: string,
  method: string,
  params?: Record<string, unknown>,
  progress?: boolean,
): Promise<RequestAnswer | undefined> {
  return command((api) => api.invoke('connections.request', { connectionId, method, ...(params && { params }), progress }))
}

/**
 * Asks the server to complete an argument as the user types (`completion/complete`): frames only, never a
 * conversation turn, and never a toast (a suggestion that cannot come is no error of the user's).
 */
export async function completeArgument(connectionId: string, params: Record<string, unknown>): Promise<RequestAnswer | undefined> {
  const api = useStore.getState().api
  try {
    return await api?.invoke('connections.request', { connectionId, method: 'completion/complete', params, conversation: false })
  } catch {
    return undefined
  }
}

/** Stops waiting for a request and tells the server (`notifications/cancelled`). */
export function cancelRequest(connectionId: string, requestId: string | number): void {
  void command((api) => api.invoke('connections.cancel', { connectionId, requestId }))
}
