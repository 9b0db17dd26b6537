import { create } from 'zustand'
import type {
  AuthEvent,
  FramesFilter,
  ApprovalRequest,
  AppInfo,
  CompareResult,
  EngineEvent,
  ListedSession,
  ParallaxApi,
  ReplayEvent,
  ReplaySummary,
  SavedTarget,
  TurnParity,
} from '../../../shared/contract'
import {
  decodeBacklog,
  frameOfRow,
  isApprovalRequired,
  logOfRow,
  walkBacklog,
  type BacklogPage,
  type BacklogVisitor,
  type FrameRows,
  type LogRows,
} from '../../../shared/contract'
import { applyEvent, applyFrameRow, applyLogRow, isSession, newConnectionView, type ConnectionView } from './connectionView'

export type Tab =
  'handshake' | 'discovery' | 'catalog' | 'conversation' | 'calls' | 'keepalive' | 'frames' | 'log' | 'auth' | 'history' | 'timeline'
export const TABS: { id: Tab; label: string; a2aLabel?: string }[] = [
  { id: 'handshake', label: 'Handshake', a2aLabel: 'Agent card' },
  { id: 'discovery', label: 'Discovery' },
  { id: 'catalog', label: 'Catalog', a2aLabel: 'Skills' },
  { id: 'conversation', label: 'Conversation' },
  { id: 'calls', label: 'Calls' },
  { id: 'keepalive', label: 'Keepalive' },
  { id: 'frames', label: 'Frames' },
  { id: 'log', label: 'Log' },
  { id: 'auth', label: 'Auth' },
  { id: 'history', label: 'History' },
  { id: 'timeline', label: 'Timeline' },
]

export type MainView =
  | { kind: 'target' }
  | { kind: 'side-by-side'; left?: string; right?: string }
  | { kind: 'replay' }
  | { kind: 'compare' }
  /** A past session of the selected target, read-only (History). */
  | { kind: 'past'; sessionId: string }
  /** A session a host runs through `parallax tap`, watched live (read-only). */
  | { kind: 'observed'; connectionId: string }

/** One replay as its events tell it: sides, turns compared so far, the summary once finished. */
export interface ReplayState {
  id: string
  /** The seq of its `started` event: the newest replay of a recording is the one with the highest. */
  startedSeq: number
  recording?: string
  sides?: ReplayEvent['sides']
  /** Its connections stay open after it ends (the user asked to keep them). */
  keep?: boolean
  total: number
  turns: TurnParity[]
  summary?: ReplaySummary
  finished: boolean
  stopped?: boolean
}

/** A recording as loaded for replay: when it was recorded, its turns, and the lines that could not be read. */
export interface LoadedRecording {
  name: string
  startedAt?: string
  problems: { line: number; message: string }[]
  turns: { index: number; turn: TurnParity['turn'] }[]
}

/** What the Replay page shows, kept while the user goes elsewhere: the recording picked, the sides, the options. */
export interface ReplayPage {
  recording?: LoadedRecording
  a: string
  b: string
  ignore: string
  keep: boolean
  /** A step or a run is in flight. */
  busy: boolean
}

/** One side of a compare as picked: a target, under a profile. */
export interface CompareSide {
  targetId: string
  profile: string
}

/** What the Compare page shows, kept while the user goes elsewhere: the sides picked and the last result. */
export interface ComparePage {
  a: CompareSide
  b: CompareSide
  result?: CompareResult
}

/** A connection's frames in a drawer over whatever the main area shows: all of them, or one turn's (a seq range). */
export interface FramesDrawer {
  connectionId: string
  range?: { from: number; to: number }
  /** What the frames are, e.g. "Turn 3 · B". */
  title?: string
}

/**
 * An MCP App tool call whose view the connection's page shows: the call, then its outcome (the result the
 * view is sent, or why there is none). One at a time per connection: a new call, a new view (`key`).
 */
export interface AppViewRequest {
  key: number
  connectionId: string
  tool: string
  uri: string
  arguments: Record<string, unknown>
  outcome?: { result: Record<string, unknown>; arguments: Record<string, unknown> } | { failed: string }
}

/** A message for a moment; one with an action (e.g. open what was just saved) stays until used or dismissed. */
export interface Toast {
  text: string
  tone: 'info' | 'error'
  action?: { label: string; run: () => void }
}

export type Theme = 'dark' | 'light'

/** What the Frames list shows of a connection's frames: the one filter the engine runs on a long session too. */
export { NO_FRAMES_FILTER, type FramesFilter } from '../../../shared/contract'

/** What the call surface (the Calls tab) acts on: a tool (or an A2A skill), a prompt, a resource, a template, or any request by method. */
export type EntryKind = 'tool' | 'prompt' | 'resource' | 'template' | 'request'

/** What the user typed for one entry, kept while they switch to another. */
export interface Draft {
  /** The form's values: a tool's arguments, a prompt's, a template's parameters. */
  values: Record<string, unknown>
  /** The JSON editor's text (a tool's arguments, a request's params), and whether it is the one shown. */
  json?: string
  mode?: 'form' | 'json'
  /** The request sent last from this entry, whose answer the surface shows. */
  requestId?: string | number
  /** Any request: whether to ask for progress (unset: as `asksProgress` says for the method). */
  progress?: boolean
  /** A template: the URI read from it last. */
  uri?: string
}

/** A target's call surface: which kind of entry it shows, the entry picked of each kind, a draft per entry (`kind:name`). */
export interface CallSurface {
  kind: EntryKind
  picked: Partial<Record<EntryKind, string>>
  drafts: Record<string, Draft>
}

/** The page's link to the engine, as its host reports it: Electron's is open at once, the web host's socket may drop and come back. */
export type LinkState = 'connecting' | 'open' | 'lost'

interface EngineSlice {
  api: ParallaxApi | undefined
  link: LinkState
  info: AppInfo | undefined
  targets: SavedTarget[]
  connections: Record<string, ConnectionView>
  /**
   * The newest session of each target: the user's own connection, the one its page and the sidebar show.
   * Connections a compare, a replay or a recording opened for themselves never take this place.
   */
  latestByTarget: Record<string, string>
  replays: Record<string, ReplayState>
  /** Each target's authorization steps (auth events), in order: a sign-in may run with no connection at all. */
  authSteps: Record<string, AuthEvent[]>
  lastSeq: number
  /**
   * Folds a batch of events in; work is proportional to the batch, not to history. Live events (not a
   * backlog being caught up on) may also tell the user something: a session's server restarted, a
   * recording saved.
   */
  applyEvents(events: EngineEvent[], options?: { live?: boolean }): void
  /**
   * Folds a page of the backlog (history: nothing in it is news to tell the user): its events, and each
   * connection's latest frames and log lines at their positions, the counts of the rest (read when shown).
   */
  applyBacklog(page: BacklogPage): void
  /** Sessions read back from disk (History), by their view's id (`session:<id>`): what is known of each, how far it was read. */
  pastSessions: Record<string, PastSession>
  /** Folds a page of a past session (`sessions.backlog`) into its read-only view, `viewId`. */
  applyPastPage(viewId: string, page: BacklogPage): void
}

/** A session opened from History: its summary, and how far its events have been read. */
export interface PastSession {
  summary: ListedSession
  lastSeq: number
  /** Its first page has come: its views can show. */
  ready: boolean
  error?: string
}

interface UiSlice {
  selectedTargetId: string | undefined
  mainView: MainView
  tab: Tab
  theme: Theme
  editing: SavedTarget | 'new' | undefined
  toast: Toast | undefined
  /** What the engine refused until the user approves it (a command, a hooks module, an origin), and who waits for the answer. */
  approval: { request: ApprovalRequest; answer: (approved: boolean) => void } | undefined
  shortcutsOpen: boolean
  /** The command palette (Ctrl/Cmd+K) is open. */
  paletteOpen: boolean
  /** Targets the user edited while connected, and the connection then live: the edit applies when it reconnects. */
  editedWhileConnected: Record<string, string>
  /** Restart notices the user dismissed: per connection, the time of the restart it said. */
  dismissedRestarts: Record<string, number>
  /** A frame to show when a frames list opens (a link from Compare or Replay). */
  focusFrame: { connectionId: string; seq: number } | undefined
  framesDrawer: FramesDrawer | undefined
  replayPage: ReplayPage
  comparePage: ComparePage
  /** Each target's call surface, kept across tabs and reconnects. */
  callSurfaces: Record<string, CallSurface>
  /** Each target's Frames filter (hide probes …), kept across tabs and reconnects. */
  framesFilters: Record<string, FramesFilter>
  /** The MCP App view each connection's page shows (above its tabs, so it stays while the user looks at its frames). */
  appViews: Record<string, AppViewRequest>
  /** The session history's settings (how much the sessions folder may hold) are open. */
  historySettingsOpen: boolean
  /** Per connection, the range of time brushed on its Timeline: Frames, Log and Conversation show only what falls in it. */
  timeRanges: Record<string, TimeRange>
  /** Per connection, the range its Timeline shows (none: the whole session, following a live one). */
  timelineWindows: Record<string, TimeRange>
  /** Per connection, the frame selected in Frames, which the Timeline marks on its axis. */
  framesOnAxis: Record<string, { seq: number; ts: number }>
  /** Spans a latency bucket picked out on a connection's Timeline: a method's (and subject's) with latency in [min, max). */
  timelineHighlight: { connectionId: string; method: string; subject?: string; min: number; max: number } | undefined
}

/** A range of time, epoch ms, both ends included. */
export interface TimeRange {
  from: number
  to: number
}

export type Store = EngineSlice & UiSlice

/**
 * The UI's one store: what the engine told it (folded from events by `applyEvents`) and what the user is
 * looking at. Beside it here: `command` and `askApproval`, the way every action reaches the engine, and
 * `showToast`, which `command` reports failures with. Every other change is a named action in
 * ./actions.ts; components call those, never `setState`.
 */
export const useStore = create<Store>()((set, get) => ({
  api: undefined,
  link: 'connecting',
  info: undefined,
  targets: [],
  connections: {},
  latestByTarget: {},
  replays: {},
  authSteps: {},
  lastSeq: 0,
  applyEvents(events, { live = true } = {}) {
    fold(get, set, { live }, (visit) => {
      for (const event of events) visit.event(event)
    })
  },
  applyBacklog(page) {
    const rows = decodeBacklog(page)
    fold(get, set, { live: false, page }, (visit) => walkBacklog(rows, visit))
  },
  pastSessions: {},
  applyPastPage(viewId, page) {
    if (!get().pastSessions[viewId]) return // closed meanwhile
    const rows = decodeBacklog(page)
    fold(get, set, { live: false, page, past: viewId }, (visit) => walkBacklog(rows, visit))
  },

  selectedTargetId: undefined,
  mainView: { kind: 'target' },
  tab: 'handshake',
  theme: 'dark', // the saved or system theme is restored by the browser entry (restoreTheme) before the first render
  editing: undefined,
  toast: undefined,
  approval: undefined,
  shortcutsOpen: false,
  paletteOpen: false,
  editedWhileConnected: {},
  dismissedRestarts: {},
  focusFrame: undefined,
  framesDrawer: undefined,
  replayPage: { a: 'demo:tools', b: 'demo:a2a', ignore: '', keep: false, busy: false },
  comparePage: { a: { targetId: 'demo:tools', profile: 'minimal' }, b: { targetId: 'demo:tools', profile: 'hinted' } },
  callSurfaces: {},
  framesFilters: {},
  appViews: {},
  historySettingsOpen: false,
  timeRanges: {},
  timelineWindows: {},
  framesOnAxis: {},
  timelineHighlight: undefined,
}))

/** A backlog's log line as an event: its text comes when the Log view asks for it. */
const textlessLogOfRow = (rows: LogRows, row: number) => logOfRow(rows, row, '')

/** How a fold goes: live events (news to tell the user), or a backlog page, a live run's or a past session's (`past`: its view's id). */
interface FoldOptions {
  live: boolean
  page?: BacklogPage
  past?: string
}

/**
 * Folds what `walk` visits into the store in one update: work proportional to the batch, never to
 * history. Each connection touched gets a new view object (its lists appended in place) and a new `rev`.
 * A page's rows go to their positions (`lists`: where each connection's first row of the page is), so rows it
 * repeats, or that came live already, are held once and folded once.
 */
function fold(get: () => Store, set: (partial: Partial<Store>) => void, options: FoldOptions, walk: (visit: BacklogVisitor) => void): void {
  const { live, page, past } = options
  const { connections, latestByTarget } = get()
  const pastSession = past === undefined ? undefined : get().pastSessions[past]
  let lastSeq = pastSession ? pastSession.lastSeq : get().lastSeq
  const touched = new Map<string, ConnectionView>()
  let newTargets: Record<string, string> | undefined
  let replays: Record<string, ReplayState> | undefined
  let authSteps: Record<string, AuthEvent[]> | undefined
  const authTouched = new Set<string>()
  let notice: Toast | undefined
  const viewFor = (connectionId: string, first: () => EngineEvent) => {
    let view = touched.get(connectionId) ?? connections[connectionId]
    if (!view) {
      view = newConnectionView(first())
      if (past !== undefined) view.past = true
    }
    touched.set(connectionId, view)
    return view
  }
  // Where each connection's next row of this page goes.
  const next = new Map<string, { frames: number; logs: number }>()
  const positionOf = (view: ConnectionView, kind: 'frames' | 'logs') => {
    let at = next.get(view.id)
    if (!at) {
      const list = page?.lists?.[view.id]
      next.set(view.id, (at = { frames: list?.framesFrom ?? view.frames.length, logs: list?.logsFrom ?? view.logs.length }))
    }
    return at[kind]++
  }
  // Rows come in long runs of one connection's: the view of the last row's is kept at hand.
  let rowConnection: string | undefined
  let rowView: ConnectionView | undefined
  /** The view row `row` goes into (made from the row when it is its connection's first event). */
  const viewOfRow = <R extends FrameRows | LogRows>(rows: R, row: number, eventOf: (rows: R, row: number) => EngineEvent) => {
    const connectionId = rows.shapes[rows.shape[row]].connectionId
    if (connectionId !== rowConnection) [rowConnection, rowView] = [connectionId, viewFor(connectionId, () => eventOf(rows, row))]
    return rowView!
  }
  /** Whether the item numbered `seq` is news (not folded before). */
  const fresh = (seq: number) => seq > lastSeq && ((lastSeq = seq), true)
  walk({
    event(event) {
      if (!fresh(event.seq)) return // already folded (backlog and live stream overlap)
      if (past !== undefined && (event.type === 'replay' || event.type === 'auth')) return
      if (event.type === 'replay') {
        replays ??= { ...get().replays }
        replays[event.replayId] = foldReplay(replays[event.replayId], event)
        return
      }
      if (event.type === 'auth') {
        // Per target, not per connection: a sign-in asked for before connecting has no connection.
        authSteps ??= { ...get().authSteps }
        if (!authTouched.has(event.targetId)) authSteps[event.targetId] = [...(authSteps[event.targetId] ?? [])]
        authTouched.add(event.targetId)
        authSteps[event.targetId].push(event)
        return
      }
      const view = viewFor(event.connectionId, () => event)
      applyEvent(view, event)
      if (
        past === undefined &&
        event.type === 'connection' &&
        isSession(view) &&
        (newTargets ?? latestByTarget)[event.targetId] !== event.connectionId
      ) {
        newTargets ??= { ...latestByTarget }
        newTargets[event.targetId] = event.connectionId
      }
      if (live) notice = noticeOf(view, event) ?? notice
    },
    frame(rows, row) {
      const view = viewOfRow(rows, row, frameOfRow)
      applyFrameRow(view, positionOf(view, 'frames'), rows, row, fresh(rows.seq[row]))
    },
    log(rows, row) {
      const view = viewOfRow(rows, row, textlessLogOfRow)
      applyLogRow(view, positionOf(view, 'logs'), rows, row, fresh(rows.seq[row]))
    },
  })
  // The counts of each connection's frames and log lines as of the page's end: those before its rows are read when shown.
  for (const [connectionId, counts] of Object.entries(page?.lists ?? {})) {
    const view = touched.get(connectionId) ?? connections[connectionId]
    if (!view) continue
    view.frames.setLength(counts.frames)
    view.logs.setLength(counts.logs)
    touched.set(connectionId, view)
  }
  // A past session is never live, however it ended (cut short, it said connected last): nothing is sent through it.
  if (past !== undefined) for (const view of touched.values()) if (view.state !== 'failed') view.state = 'closed'
  if (page) lastSeq = Math.max(lastSeq, page.lastSeq)
  const seqMoved = lastSeq !== (pastSession ? pastSession.lastSeq : get().lastSeq)
  if (touched.size === 0 && !replays && !authSteps && !seqMoved && !(pastSession && !pastSession.ready)) return
  const views = touched.size ? { ...connections } : connections
  for (const [id, view] of touched) views[id] = { ...view, rev: view.rev + 1 }
  set({
    connections: views,
    ...(pastSession ? { pastSessions: { ...get().pastSessions, [past!]: { ...pastSession, lastSeq, ready: true } } } : { lastSeq }),
    ...(newTargets && { latestByTarget: newTargets }),
    ...(replays && { replays }),
    ...(authSteps && { authSteps }),
    ...(notice && { toast: notice }),
  })
}

/**
 * What a live event tells the user beyond its view: the user's session came back after its server went
 * away (over stdio, a new process: whatever the server kept is gone), a recording was saved or failed.
 */
function noticeOf(view: ConnectionView, event: EngineEvent): Toast | undefined {
  if (event.type === 'connection' && event.reconnected && isSession(view)) {
    const how = view.transport === 'stdio' ? 'restarted' : 'reconnected'
    return {
      text: `${event.targetName} ${how} after "${event.reconnected.cause}": state the server kept (sessions, subscriptions, anything in memory) may be gone.`,
      tone: 'info',
    }
  }
  if (event.type === 'recording' && event.state === 'stopped') {
    const name = event.name
    return {
      text: `Saved "${name}": ${plural(event.events ?? 0, 'event')}, ${plural(event.turns ?? 0, 'turn')}`,
      tone: 'info',
      action: { label: 'Open in Replay', run: () => void openRecording(name, { show: true }) },
    }
  }
  if (event.type === 'recording' && event.state === 'failed')
    return { text: event.error ?? `recording "${event.name}" failed`, tone: 'error' }
  return undefined
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`
}

/** The view of the selected target's newest connection, if it has one. */
export function useSelectedConnection(): ConnectionView | undefined {
  return useStore((s) => (s.selectedTargetId ? s.connections[s.latestByTarget[s.selectedTargetId]] : undefined))
}

export function useSelectedTarget(): SavedTarget | undefined {
  return useStore((s) => s.targets.find((t) => t.id === s.selectedTargetId))
}

/** Shows a message for a moment (longer for an error), or, with an action, until it is used or dismissed. */
export function showToast(text: string, tone: 'info' | 'error' = 'info', action?: Toast['action']): void {
  useStore.setState({ toast: { text, tone, ...(action && { action }) } })
}

/**
 * Runs a command, turning a failure into a visible message instead of an unhandled rejection. When the
 * engine refuses for want of the user's approval, the user is asked; once approved, the command runs again.
 */
export async function command<T>(run: (api: ParallaxApi) => Promise<T>): Promise<T | undefined> {
  const api = useStore.getState().api
  if (!api) return undefined
  try {
    return await run(api)
  } catch (error) {
    const details = (error as { code?: string; details?: unknown }).details
    if ((error as { code?: string }).code === 'approval-required' && isApprovalRequired(details)) {
      return (await askApproval(details.approval)) ? command(run) : undefined
    }
    showToast((error as Error).message, 'error')
    return undefined
  }
}

/**
 * Loads a recording into the Replay page (its date, turns and unreadable lines); with `show`, opens the
 * page. The results of the recording's latest replay show with it, until it is replayed again.
 */
export async function openRecording(name: string, { show = false }: { show?: boolean } = {}): Promise<void> {
  const result = await command((api) => api.invoke('recordings.load', { name }))
  if (!result) return
  const recording = { name, startedAt: result.header?.startedAt, problems: result.problems, turns: result.turns }
  useStore.setState((s) => ({ replayPage: { ...s.replayPage, recording }, ...(show && { mainView: { kind: 'replay' as const } }) }))
}

/** Shows the approval dialog; resolves true once the user approved and the engine recorded it. */
export function askApproval(request: ApprovalRequest): Promise<boolean> {
  useStore.getState().approval?.answer(false) // one question at a time: a newer one replaces an unanswered one
  return new Promise((resolve) => {
    useStore.setState({
      approval: {
        request,
        answer: (approved) => {
          useStore.setState({ approval: undefined })
          if (!approved) return resolve(false)
          void command((api) => api.invoke('approvals.grant', { fingerprint: request.fingerprint })).then((granted) =>
            resolve(granted !== undefined),
          )
        },
      },
    })
  })
}

function foldReplay(current: ReplayState | undefined, event: ReplayEvent): ReplayState {
  const replay: ReplayState = current ? { ...current } : { id: event.replayId, startedSeq: event.seq, total: 0, turns: [], finished: false }
  if (event.phase === 'started')
    Object.assign(replay, {
      startedSeq: event.seq,
      recording: event.recording,
      sides: event.sides,
      keep: event.keep,
      total: event.total ?? 0,
    })
  if (event.phase === 'turn' && event.turn) replay.turns.push(event.turn) // appended in place; `turns.length` says it changed
  if (event.phase === 'finished') Object.assign(replay, { summary: event.summary, finished: true, stopped: event.stopped })
  return replay
}
