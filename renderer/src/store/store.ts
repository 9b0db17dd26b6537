import { create } from 'zustand'
import type {
  ApprovalRequest,
  AppInfo,
  EngineEvent,
  ParallaxApi,
  ReplayEvent,
  ReplaySummary,
  SavedTarget,
  TurnParity,
} from '../../../shared/contract'
import { isApprovalRequired } from '../../../shared/contract'
import type { LinkState } from '../host'
import { applyEvent, newConnectionView, type ConnectionView } from './connectionView'

export type Tab = 'handshake' | 'discovery' | 'catalog' | 'conversation' | 'calls' | 'keepalive' | 'frames' | 'log'
export const TABS: { id: Tab; label: string; a2aLabel?: string }[] = [
  { id: 'handshake', label: 'Handshake', a2aLabel: 'Agent card' },
  { id: 'discovery', label: 'Discovery' },
  { id: 'catalog', label: 'Catalog', a2aLabel: 'Skills' },
  { id: 'conversation', label: 'Conversation' },
  { id: 'calls', label: 'Calls' },
  { id: 'keepalive', label: 'Keepalive' },
  { id: 'frames', label: 'Frames' },
  { id: 'log', label: 'Log' },
]

export type MainView =
  { kind: 'target' } | { kind: 'side-by-side'; left?: string; right?: string } | { kind: 'replay' } | { kind: 'compare' }

/** One replay as its events tell it: sides, turns compared so far, the summary once finished. */
export interface ReplayState {
  id: string
  recording?: string
  sides?: ReplayEvent['sides']
  total: number
  turns: TurnParity[]
  summary?: ReplaySummary
  finished: boolean
  stopped?: boolean
}

export type Theme = 'dark' | 'light'

interface EngineSlice {
  api: ParallaxApi | undefined
  link: LinkState
  info: AppInfo | undefined
  targets: SavedTarget[]
  connections: Record<string, ConnectionView>
  /** The newest connection of each target. */
  latestByTarget: Record<string, string>
  replays: Record<string, ReplayState>
  lastSeq: number
  /** Folds a batch of events in; work is proportional to the batch, not to history. */
  applyEvents(events: EngineEvent[]): void
}

interface UiSlice {
  selectedTargetId: string | undefined
  mainView: MainView
  tab: Tab
  theme: Theme
  editing: SavedTarget | 'new' | undefined
  toast: { text: string; tone: 'info' | 'error' } | undefined
  /** What the engine refused until the user approves it (a command, a hooks module, an origin), and who waits for the answer. */
  approval: { request: ApprovalRequest; answer: (approved: boolean) => void } | undefined
  shortcutsOpen: boolean
  /** A frame to show when the Frames tab opens (a link from Compare or Replay). */
  focusFrame: { connectionId: string; seq: number } | undefined
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
  lastSeq: 0,
  applyEvents(events) {
    const { connections, latestByTarget } = get()
    let lastSeq = get().lastSeq
    const touched = new Map<string, ConnectionView>()
    let newTargets: Record<string, string> | undefined
    let replays: Record<string, ReplayState> | undefined
    for (const event of events) {
      if (event.seq <= lastSeq) continue // already folded (backlog and live stream overlap)
      lastSeq = event.seq
      if (event.type === 'replay') {
        replays ??= { ...get().replays }
        replays[event.replayId] = foldReplay(replays[event.replayId], event)
        continue
      }
      let view = touched.get(event.connectionId) ?? connections[event.connectionId]
      if (!view) {
        view = newConnectionView(event)
      }
      touched.set(event.connectionId, view)
      applyEvent(view, event)
      if (event.type === 'connection' && latestByTarget[event.targetId] !== event.connectionId) {
        newTargets ??= { ...latestByTarget }
        newTargets[event.targetId] = event.connectionId
      }
    }
    if (touched.size === 0 && !replays) return
    const next = touched.size ? { ...connections } : connections
    for (const [id, view] of touched) next[id] = { ...view, rev: view.rev + 1 }
    set({ connections: next, lastSeq, ...(newTargets && { latestByTarget: newTargets }), ...(replays && { replays }) })
  },

  selectedTargetId: undefined,
  mainView: { kind: 'target' },
  tab: 'handshake',
  theme: 'dark', // the saved or system theme is restored by the browser entry (restoreTheme) before the first render
  editing: undefined,
  toast: undefined,
  approval: undefined,
  shortcutsOpen: false,
  focusFrame: undefined,
}))

/** The view of the selected target's newest connection, if it has one. */
export function useSelectedConnection(): ConnectionView | undefined {
  return useStore((s) => (s.selectedTargetId ? s.connections[s.latestByTarget[s.selectedTargetId]] : undefined))
}

export function useSelectedTarget(): SavedTarget | undefined {
  return useStore((s) => s.targets.find((t) => t.id === s.selectedTargetId))
}

/** Shows a message for a moment (longer for an error). */
export function showToast(text: string, tone: 'info' | 'error' = 'info'): void {
  useStore.setState({ toast: { text, tone } })
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
  const replay: ReplayState = current ? { ...current } : { id: event.replayId, total: 0, turns: [], finished: false }
  if (event.phase === 'started') Object.assign(replay, { recording: event.recording, sides: event.sides, total: event.total ?? 0 })
  if (event.phase === 'turn' && event.turn) replay.turns.push(event.turn) // appended in place; `turns.length` says it changed
  if (event.phase === 'finished') Object.assign(replay, { summary: event.summary, finished: true, stopped: event.stopped })
  return replay
}
