import type {
  ApprovalRequest,
  CallEvent,
  HooksEvent,
  ConnectionEvent,
  ConversationEvent,
  ConnectionState,
  DiscoveryEvent,
  DiscoveryMethod,
  EngineEvent,
  FrameEvent,
  HandshakeEvent,
  Health,
  KeepaliveEvent,
  LogEvent,
  Protocol,
  TransportKind,
} from '../../../shared/contract'

/**
 * Everything the UI shows about one connection, folded from its events. Arrays only ever grow and
 * are appended in place (no O(n) copies per event); `rev` changes whenever anything did.
 */
export interface ConnectionView {
  id: string
  targetId: string
  targetName: string
  protocol: Protocol
  state: ConnectionState
  health: Health
  transport?: TransportKind
  pid?: number
  reason?: string
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
  frames: FrameEvent[]
  logs: LogEvent[]
  conversation: ConversationEvent[]
  calls: CallEvent[]
  hooks?: HooksEvent
  /** The recording in progress, if any. */
  recording?: { name: string; error?: string }
  oddities: number
  rev: number
}

export function newConnectionView(event: EngineEvent): ConnectionView {
  const c = event.type === 'connection' ? event : undefined
  return {
    id: event.connectionId,
    targetId: c?.targetId ?? event.connectionId.replace(/#\d+$/, ''),
    targetName: c?.targetName ?? event.connectionId,
    protocol: c?.protocol ?? 'mcp',
    state: 'connecting',
    health: 'healthy',
    openedAt: event.ts,
    discovery: [],
    catalog: {},
    probes: [],
    lifecycle: [],
    frames: [],
    logs: [],
    conversation: [],
    calls: [],
    oddities: 0,
    rev: 0,
  }
}

/** Folds one event into its connection's view, in O(1). */
export function applyEvent(view: ConnectionView, event: EngineEvent): void {
  switch (event.type) {
    case 'frame':
      view.frames.push(event)
      break
    case 'log':
      view.logs.push(event)
      break
    case 'conversation':
      view.conversation.push(event)
      break
    case 'call':
      view.calls.push(event)
      break
    case 'hooks':
      view.hooks = event
      break
    case 'recording':
      view.recording =
        event.state === 'started' ? { name: event.name } : event.state === 'failed' ? { name: event.name, error: event.error } : undefined
      break
    case 'handshake':
      view.handshake = event
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
      view.targetName = event.targetName
      view.transport = event.transport ?? view.transport
      view.reason = event.reason
      view.approval = event.approval
      view.attempt = event.attempt
      view.maxAttempts = event.maxAttempts
      if (event.pid !== undefined) view.pid = event.pid
      if (event.state === 'connected') view.health = 'healthy'
      else if (event.state === 'reconnecting' || event.state === 'failed') view.health = 'down'
      break
  }
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
