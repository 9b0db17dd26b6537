import type {
  FailureCause,
  ApprovalRequest,
  AdcpCheckEvent,
  CallEvent,
  HooksEvent,
  ConnectionEvent,
  ConnectionOwner,
  ConversationEvent,
  ConnectionState,
  DiscoveryEvent,
  DiscoveryMethod,
  EngineEvent,
  FrameEvent,
  FrameRows,
  HandshakeEvent,
  Health,
  HoldEvent,
  KeepaliveEvent,
  LogLevel,
  LogRows,
  Protocol,
  ServerRequestEvent,
  TapBreakpoints,
  TransportKind,
} from '../../../shared/contract'
import { foldRequestFrame, foldRequestMessage, newRequestsView, type RequestsView } from './requests'
import { FrameList, LogList } from './rowLists'

/**
 * Everything the UI shows about one connection, folded from its events (and from a backlog's rows: see
 * applyFrameRow). Arrays and lists only ever grow and are appended in place (no O(n) copies per event);
 * `rev` changes whenever anything did.
 */
export interface ConnectionView {
  id: string
  targetId: string
  targetName: string
  protocol: Protocol
  /** Who opened it and what for: the user's session, or a compare's, a replay's, a recording's own. */
  owner: ConnectionOwner
  state: ConnectionState
  health: Health
  transport?: TransportKind
  pid?: number
  reason?: string
  /** Why it failed or is reconnecting, whole (the HTTP status and challenge, a sign-in needed, …); gone once connected. */
  cause?: FailureCause
  /** Why the last attempt failed, when it was for want of the user's approval. */
  approval?: ApprovalRequest
  attempt?: number
  maxAttempts?: number
  openedAt: number
  handshake?: HandshakeEvent
  discovery: DiscoveryEvent[]
  catalog: Partial<Record<DiscoveryMethod, unknown[]>>
  probes: KeepaliveEvent[]
  lifecycle: ConnectionEvent[]
  frames: FrameList
  logs: LogList
  conversation: ConversationEvent[]
  calls: CallEvent[]
  /** Calls and turns of an AdCP agent's tasks that broke AdCP's schemas (the newest MAX_FINDINGS). */
  adcp: AdcpCheckEvent[]
  hooks?: HooksEvent
  /** The recording in progress (since when, events written so far), or the one that failed. */
  recording?: { name: string; startedAt: number; events: number; error?: string }
  /** The last time the connection went down and keepalive brought it back (over stdio: a new server process). */
  reconnected?: { at: number; cause: string; downSince: number }
  /** What the server asked its client (sampling, elicitation, roots), by request id: the latest event of each (pending ones wait for the user). */
  serverRequests: Record<string, ServerRequestEvent>
  oddities: number
  /** Of those, the ones the log flagged (the server's log messages and progress). */
  logOddities: number
  /** The level the server agreed to send its log messages at this session (`logging/setLevel`), and one asked for but not answered yet. */
  logLevel?: LogLevel
  askedLogLevel?: LogLevel
  /** The user's requests: in flight (with their progress), answered (by method), and the resources subscribed to. */
  requests: RequestsView
  /** Messages between each MCP App view and Parallax (frames of protocol `mcp-app`), by view id. */
  appFrames: Record<string, number>
  /** A session read back from disk (History), under the id `session:<its id>`: read-only, nothing is sent from it. */
  past?: true
  /** The protocol oddities the log flagged, newest last (at most MAX_FINDINGS): on an observed connection, whose they are. */
  findings: Finding[]
  /** An observed connection's hold in flight: what the tap holds now, and the messages held (by hold id) until decided. */
  hold: { breakpoints?: TapBreakpoints; held: Record<number, HoldEvent>; decided: number }
  rev: number
}

/** A log line flagged as an oddity: a finding about the host or the server (the text comes later for a backlog's row). */
export interface Finding {
  seq: number
  ts: number
  about: 'host' | 'server'
  text?: string
}

/** Findings a view keeps: the newest. */
const MAX_FINDINGS = 500

export function newConnectionView(event: EngineEvent): ConnectionView {
  const c = event.type === 'connection' ? event : undefined
  return {
    id: event.connectionId,
    targetId: c?.targetId ?? event.connectionId.replace(/#\d+$/, ''),
    targetName: c?.targetName ?? event.connectionId,
    protocol: c?.protocol ?? 'mcp',
    owner: c?.owner ?? { purpose: 'session', startedAt: event.ts },
    state: 'connecting',
    health: 'healthy',
    openedAt: event.ts,
    discovery: [],
    catalog: {},
    probes: [],
    lifecycle: [],
    frames: new FrameList(event.connectionId),
    logs: new LogList(event.connectionId),
    conversation: [],
    calls: [],
    adcp: [],
    serverRequests: {},
    oddities: 0,
    logOddities: 0,
    requests: newRequestsView(),
    appFrames: {},
    findings: [],
    hold: { held: {}, decided: 0 },
    rev: 0,
  }
}

/** Folds one event into its connection's view, in O(1). */
export function applyEvent(view: ConnectionView, event: EngineEvent): void {
  if (event.type !== 'recording') countRecorded(view)
  switch (event.type) {
    case 'frame':
      view.frames.push(event)
      foldFrame(view, event)
      break
    case 'log':
      view.logs.push(event)
      if (event.oddity) noteFinding(view, { seq: event.seq, ts: event.ts, about: event.about ?? 'server', text: event.text })
      break
    case 'hold':
      foldHold(view, event)
      break
    case 'conversation':
      view.conversation.push(event)
      foldRequestMessage(view.requests, event)
      break
    case 'call':
      view.calls.push(event)
      break
    case 'adcp':
      view.adcp.push(event)
      if (view.adcp.length > MAX_FINDINGS) view.adcp.splice(0, view.adcp.length - MAX_FINDINGS)
      break
    case 'serverRequest':
      view.serverRequests[String(event.id)] = event
      break
    case 'hooks':
      view.hooks = event
      break
    case 'recording':
      view.recording =
        event.state === 'started'
          ? { name: event.name, startedAt: event.ts, events: event.context ?? 0 }
          : event.state === 'failed'
            ? {
                name: event.name,
                startedAt: view.recording?.startedAt ?? event.ts,
                events: view.recording?.events ?? 0,
                error: event.error,
              }
            : undefined
      break
    case 'handshake':
      view.handshake = event
      view.logLevel = view.askedLogLevel = undefined // a new session starts at the server's default
      view.transport = event.transport
      view.protocol = event.protocol
      if (event.protocol === 'a2a') view.oddities += event.warnings.length
      break
    case 'discovery':
      view.discovery.push(event)
      if (event.items) view.catalog[event.method] = event.items
      if (event.oddity) view.oddities++
      break
    case 'keepalive':
      view.probes.push(event)
      view.health = event.health
      break
    case 'connection':
      view.lifecycle.push(event)
      view.state = event.state
      if (event.owner) view.owner = event.owner
      if (event.reconnected) view.reconnected = { at: event.ts, ...event.reconnected }
      view.targetName = event.targetName
      view.transport = event.transport ?? view.transport
      view.reason = event.reason
      view.cause = event.cause
      view.approval = event.approval
      view.attempt = event.attempt
      view.maxAttempts = event.maxAttempts
      if (event.pid !== undefined) view.pid = event.pid
      if (event.state === 'connected') view.health = 'healthy'
      else if (event.state === 'reconnecting' || event.state === 'failed') view.health = 'down'
      break
  }
}

/**
 * Holds row `row` of a backlog page's frames at `position` and, when it is news (`fresh`: not folded before, from
 * the live stream or an earlier page), folds it, in O(1). A row that is only its shape and numbers (a
 * notification whose payload the UI does not fold) tells the views nothing more than its place in Frames; any
 * other is folded as the frame it stands for. A page brings each connection's latest rows only, and what the
 * views fold from rows (requests in flight and their progress, cancels, subscriptions, the log level agreed,
 * oddities) is the recent past those rows hold; the rows before them are read by position when shown.
 */
export function applyFrameRow(view: ConnectionView, position: number, rows: FrameRows, row: number, fresh: boolean): void {
  const frame = view.frames.putRow(position, rows, row)
  if (!fresh) return
  countRecorded(view)
  if (rows.rest[row]) foldFrame(view, frame)
}

/** Holds row `row` of a backlog page's log lines at `position`, and folds it when it is news, in O(1). */
export function applyLogRow(view: ConnectionView, position: number, rows: LogRows, row: number, fresh: boolean): void {
  view.logs.putRow(position, rows, row)
  if (!fresh) return
  countRecorded(view)
  const shape = rows.shapes[rows.shape[row]]
  if (shape.oddity) noteFinding(view, { seq: rows.seq[row], ts: rows.ts[row], about: shape.about ?? 'server' })
}

function countRecorded(view: ConnectionView): void {
  if (view.recording && !view.recording.error) view.recording.events++
}

function noteFinding(view: ConnectionView, finding: Finding): void {
  view.oddities++
  view.logOddities++
  view.findings.push(finding)
  if (view.findings.length > MAX_FINDINGS) view.findings.splice(0, view.findings.length - MAX_FINDINGS)
}

/** What a tap holds: its breakpoints as it says them, each held message until it is released or dropped. */
function foldHold(view: ConnectionView, event: HoldEvent): void {
  if (event.state === 'breakpoints') view.hold.breakpoints = event.breakpoints
  else if (event.holdId === undefined) return
  else if (event.state === 'held') view.hold.held[event.holdId] = event
  else if (view.hold.held[event.holdId]) {
    delete view.hold.held[event.holdId]
    view.hold.decided++
  }
}

/** What a frame tells the views beyond Frames: an App view's message, the log level agreed, a request's progress, a subscription. */
function foldFrame(view: ConnectionView, frame: FrameEvent): void {
  if (frame.view) view.appFrames[frame.view.id] = (view.appFrames[frame.view.id] ?? 0) + 1
  if (frame.method === 'logging/setLevel') noteLogLevel(view, frame)
  foldRequestFrame(view.requests, frame)
}

/** Whether a connection is the user's own session (what a target's page and the sidebar show). */
export function isSession(view: Pick<ConnectionView, 'owner'>): boolean {
  return view.owner.purpose === 'session'
}

/** Watched through `parallax tap`: the host drives it, Parallax only reads it. */
export function isObserved(view: Pick<ConnectionView, 'owner'>): boolean {
  return view.owner.purpose === 'tap'
}

/** Nothing is sent from this view: a past session's, or an observed one's (the host's session, not Parallax's). */
export function sendsNothing(view: Pick<ConnectionView, 'owner' | 'past'>): boolean {
  return view.past === true || isObserved(view)
}

/**
 * A frame's number as the user knows it: its place among its connection's frames, from 1 (what the Frames
 * list and the drawer show, and every link to a frame says); undefined while the frame has not arrived.
 */
export function frameNumber(view: Pick<ConnectionView, 'frames'> | undefined, seq: number): number | undefined {
  const index = view ? view.frames.indexOfSeq(seq) : -1
  return index === -1 ? undefined : index + 1
}

/** The number a connection is known by (`demo:tools#3` → `#3`). */
export function connectionNumber(connectionId: string): string {
  return connectionId.match(/#\d+$/)?.[0] ?? connectionId
}

/** A `logging/setLevel` on the wire: asked for on the way out, the server's level once it answered. */
function noteLogLevel(view: ConnectionView, frame: FrameEvent): void {
  if (frame.direction === 'out' && frame.kind === 'request') {
    const level = (frame.payload as { params?: { level?: unknown } } | undefined)?.params?.level
    view.askedLogLevel = typeof level === 'string' ? (level as LogLevel) : undefined
  } else if (frame.direction === 'in' && frame.kind === 'response' && view.askedLogLevel) {
    view.logLevel = view.askedLogLevel
    view.askedLogLevel = undefined
  } else if (frame.direction === 'in' && frame.kind === 'error') view.askedLogLevel = undefined
}

/** The server's requests that wait for the user now, oldest first. */
export function pendingServerRequests(view: Pick<ConnectionView, 'serverRequests' | 'state'>): ServerRequestEvent[] {
  if (view.state === 'closed' || view.state === 'failed') return []
  return Object.values(view.serverRequests)
    .filter((e) => e.state === 'pending')
    .sort((a, b) => a.seq - b.seq)
}

/** The latest discovery event per list method. */
export function latestDiscovery(view: ConnectionView): DiscoveryEvent[] {
  const latest = new Map<DiscoveryMethod, DiscoveryEvent>()
  for (const step of view.discovery) latest.set(step.method, step)
  return [...latest.values()]
}

/** One word for the sidebar dot and the page header. */
export function statusTone(view: Pick<ConnectionView, 'state' | 'health'> | undefined): 'ok' | 'warn' | 'bad' | 'busy' | 'idle' {
  if (!view) return 'idle'
  switch (view.state) {
    case 'connected':
      return view.health === 'healthy' ? 'ok' : 'warn'
    case 'degraded':
      return 'warn'
    case 'connecting':
      return 'busy'
    case 'reconnecting':
    case 'failed':
      return 'bad'
    case 'closed':
      return 'idle'
  }
}
