import type { ConnectionOwner, EngineEvent, EventInput, FrameEvent, ObservedBy, Protocol, TransportKind } from '../contract'
import { acpSubject } from '../acp/frames'
import { SchemaValidator } from '../hooks/validator'
import { JsonRpcTap, type TappedFrame } from '../runtime/jsonRpcTap'
import type { FrameSpill } from '../runtime/frameSpill'
import { ObservedA2a } from './observedA2a'
import { ObservedAcp } from './observedAcp'
import type { RelayWatcher } from './chunkReader'
import type { AnalysisContext, Message, ProtocolAnalysis } from './messages'
import { ObservedMcp } from './observedMcp'

export interface ObservedOptions {
  connectionId: string
  /** What the session is called (the tap's `--name`, else the command). */
  name: string
  transport: TransportKind
  /** Given (`--protocol`), else recognised from the first messages. */
  protocol?: Protocol
  observed: ObservedBy
  emit: (event: EventInput) => EngineEvent
  spill?: FrameSpill
  protocolFields?: readonly string[]
}

/** Lines said before the first message (the server's stderr as it starts) wait this long at most. */
const EARLY_LINES = 200

/**
 * A session Parallax watches and does not drive (DESIGN, "Driven or observed"): every message between a
 * host and a server, in wire order, becomes a frame (`out`: the host's, `in`: the server's), and the same
 * analysis a driven connection has runs over it — with the host's offer in place of Parallax's: the
 * handshake as the host made it, the discovery the host did and whether the server allowed it, pings and
 * who sent them, each call's arguments checked, the conversation. The protocol is recognised from the
 * host's first message unless given. Nothing here sends anything: it reads.
 */
export class ObservedSession {
  private protocol: Protocol | undefined
  private tap: JsonRpcTap | undefined
  private analysis: ProtocolAnalysis | undefined
  private readonly owner: ConnectionOwner
  private started = false
  private ended = false
  private early: EventInput[] = []
  private lastFrame: FrameEvent | undefined
  private readonly validator = new SchemaValidator()
  private transport: TransportKind
  /** The HTTP exchange the message being recorded belongs to (an HTTP tap's), put on its frame. */
  private http: FrameEvent['http'] | undefined

  constructor(private readonly options: ObservedOptions) {
    this.owner = { purpose: 'tap', startedAt: Date.now(), observed: { ...options.observed } }
    this.protocol = options.protocol
    this.transport = options.transport
  }

  get connectionId(): string {
    return this.options.connectionId
  }

  /**
   * One message as it crossed (`out`: from the host, `in`: from the server), `wire` its exact text; over
   * HTTP, `http` the exchange it belongs to (secrets already taken out of its headers).
   */
  message(direction: 'out' | 'in', message: unknown, ts: number, wire?: string, http?: FrameEvent['http']): void {
    if (this.ended) return
    if (!this.started) this.begin(message as Message, ts)
    this.http = http
    try {
      this.tap!.record(direction, message, ts, undefined, wire)
    } finally {
      this.http = undefined
    }
    if (message && typeof message === 'object') this.analysis!.seen(direction, message as Message, this.lastFrame!)
  }

  /** What a relay's reader tells: this session's messages, garbage and stderr. */
  watcher(): RelayWatcher {
    return {
      message: (way, message, ts, wire) => this.message(way, message, ts, wire),
      garbage: (way, text, ts) => this.garbage(way, text, ts),
      stderr: (line, ts) => this.stderr(line, ts),
    }
  }

  /**
   * A frame the reader built itself, where a message is not one JSON-RPC message (an A2A card, a REST
   * exchange, a stream event): recorded as it is, then read by the analysis. Returns it as recorded.
   */
  frame(frame: TappedFrame): FrameEvent | undefined {
    if (this.ended) return undefined
    if (!this.started) this.begin(undefined, frame.ts)
    const recorded = this.emit(frame as EventInput) as FrameEvent
    this.lastFrame = recorded
    const payload = recorded.payload
    this.analysis!.seen(recorded.direction, (payload && typeof payload === 'object' ? payload : {}) as Message, recorded)
    return recorded
  }

  /** What an HTTP tap recognised before the session's first message: the protocol and its transport (later, nothing changes). */
  recognised(protocol: Protocol, transport: TransportKind): void {
    if (this.started) return
    this.protocol = protocol
    this.transport = transport
  }

  /** A line on the pipe that is not JSON-RPC: kept, and said to be what it is. */
  garbage(direction: 'out' | 'in', text: string, ts: number): void {
    const who = direction === 'out' ? 'host' : 'server'
    const line = text.length > 200 ? `${text.slice(0, 200)}…` : text
    this.say({
      type: 'log',
      connectionId: this.connectionId,
      source: 'transport',
      level: 'warn',
      oddity: true,
      about: who,
      text: `the ${who} wrote a line that is not JSON-RPC: ${line}`,
      ts,
    })
  }

  /** A line of the server's stderr. */
  stderr(text: string, ts: number): void {
    this.say({ type: 'log', connectionId: this.connectionId, source: 'stderr', level: 'info', text, ts })
  }

  /** A note of the tap's own (the server's process started, a failure on Parallax's side). */
  note(text: string, ts: number, level: 'info' | 'warn' | 'error' = 'info'): void {
    this.say({ type: 'log', connectionId: this.connectionId, source: 'engine', level, text, ts })
  }

  /** Something else the tap says about the session as it is (held messages): stamped with this connection. */
  event(input: EventInput): void {
    this.say({ ...input, connectionId: this.connectionId } as EventInput)
  }

  /** The session ended: the server exited (how), or the host went away. */
  end(ts: number, how: { failed?: string; reason?: string; exit?: { code: number | null; signal: string | null } } = {}): void {
    if (this.ended) return
    if (!this.started) this.begin(undefined, ts)
    this.analysis?.finish(ts)
    this.ended = true
    this.emit({
      ...this.connectionEvent(how.failed ? 'failed' : 'closed', ts),
      ...((how.failed ?? how.reason) && { reason: how.failed ?? how.reason }),
      ...(how.exit && { cause: { transport: this.transport, exit: how.exit, command: this.options.observed.command } }),
    })
  }

  private begin(first: Message | undefined, ts: number): void {
    this.started = true
    this.protocol ??= recognise(first)
    const protocol = this.protocol
    // The frame itself is the event (stamped in place), so an answer's `requestSeq` finds its request's number.
    const sink = (frame: object) => {
      const http = this.http && { http: this.http }
      this.lastFrame = this.options.emit(Object.assign(frame, { connectionId: this.connectionId }, http) as EventInput) as FrameEvent
    }
    this.tap = new JsonRpcTap(protocol, this.transport, sink, this.options.spill, protocol === 'acp' ? acpSubject : undefined)
    const context: AnalysisContext = {
      connectionId: this.connectionId,
      transport: this.transport,
      emit: (event) => this.emit(event),
      validator: this.validator,
      protocolFields: this.options.protocolFields,
      connected: (host) => {
        if (host) this.owner.observed = { ...this.owner.observed!, host }
        this.emit(this.connectionEvent('connected', ts))
      },
      finding: (about, text, at) =>
        this.emit({ type: 'log', connectionId: this.connectionId, source: 'engine', level: 'warn', oddity: true, about, text, ts: at }),
    }
    this.analysis = protocol === 'acp' ? new ObservedAcp(context) : protocol === 'a2a' ? new ObservedA2a(context) : new ObservedMcp(context)
    this.emit(this.connectionEvent('connecting', ts))
    for (const event of this.early) this.emit(event)
    this.early = []
  }

  private connectionEvent(state: 'connecting' | 'connected' | 'closed' | 'failed', ts: number): EventInput {
    return {
      type: 'connection',
      connectionId: this.connectionId,
      state,
      targetId: `tap:${this.options.name}`,
      targetName: this.options.name,
      protocol: this.protocol ?? 'mcp',
      transport: this.transport,
      owner: this.owner,
      ...(this.options.observed.pid !== undefined && { pid: this.options.observed.pid }),
      ts,
    }
  }

  /** Said now when the session has begun, else kept (bounded) until it does. */
  private say(event: EventInput): void {
    if (this.started) this.emit(event)
    else if (this.early.length < EARLY_LINES) this.early.push(event)
  }

  private emit(event: EventInput): EngineEvent {
    return this.options.emit({ ...event, connectionId: this.connectionId } as EventInput)
  }
}

/**
 * Which protocol a host speaks, from its first message: ACP's `initialize` carries a numeric protocol
 * version (MCP's is a date), and ACP's methods are its own (`session/…`, `authenticate`); anything else is MCP.
 */
export function recognise(first: Message | undefined): Protocol {
  const method = typeof first?.method === 'string' ? first.method : ''
  if (method === 'initialize') {
    const version = (first?.params as { protocolVersion?: unknown } | undefined)?.protocolVersion
    return typeof version === 'number' ? 'acp' : 'mcp'
  }
  return method.startsWith('session/') || method === 'authenticate' ? 'acp' : 'mcp'
}
