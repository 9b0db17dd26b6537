import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import {
  LOG_LEVELS,
  type ClientProfile,
  type DiscoveryEvent,
  type DiscoveryMethod,
  type DiscoveryTrigger,
  type LogEvent,
  type LogLevel,
  type McpEra,
} from '../contract'
import type { TappedFrame } from '../runtime/jsonRpcTap'
import { ClientRole } from './clientRole'
import { LIST_CHANGED } from './discovery'
import { SUBSCRIPTION_ID_KEY } from './eraWire'
import { ProgressTokens, serverLogLine } from './serverVoice'

/** The session the server speaks in, as negotiated (./eraSession.ts). */
export interface HeardSession {
  readonly era: McpEra | undefined
  /** What the server advertised. */
  readonly capabilities: Record<string, unknown>
  /** The server capabilities initialize answered, else those negotiated. */
  readonly advertised: Record<string, unknown>
  /** The client capabilities Parallax offered in initialize. */
  readonly offered: Record<string, unknown>
  honorsListChange(capability: string): boolean
}

/** What the user chose of the session, as far as what the server says is judged by it (./sessionChoices.ts). */
export interface HeardChoices {
  readonly agreedLogLevel: LogLevel | undefined
  subscribed(uri: string): boolean
}

/** What hearing the server needs of its connection. */
export interface ServerFramesHost {
  readonly profile: ClientProfile | undefined
  readonly session: HeardSession
  readonly choices: HeardChoices
  emit(event: Omit<LogEvent, 'seq' | 'ts' | 'connectionId'> | Omit<DiscoveryEvent, 'seq' | 'ts' | 'connectionId'>): void
  logLine(level: LogEvent['level'], text: string): void
  /** Discovers one list again (./discovery.ts). */
  refresh(method: DiscoveryMethod, trigger: DiscoveryTrigger): void
}

type Frame = TappedFrame & { seq?: number }

/**
 * What the server says, frame by frame as the tap records it (docs/architecture.md, "The protocol rules the
 * code keeps": the server's own voice): its log messages as log lines, its progress judged in wire order,
 * updates of the resources the user subscribed to, list changes that refresh a list (where the era's rules
 * let them), and each request it sends noted for the answer. What it gets wrong is a protocol oddity,
 * flagged once per kind a session.
 */
export class ServerFrames {
  /** The progress tokens given to the server this session, and what became of their requests. */
  private readonly progressTokens = new ProgressTokens()
  /** The protocol oddities already flagged this session, by kind: each kind once, its frames show every instance. */
  private readonly flagged = new Set<string>()
  /** The frame of each request the server sent, by id, until its handler picks it up. */
  private readonly serverRequestFrames = new Map<string | number, number | undefined>()

  constructor(private readonly host: ServerFramesHost) {}

  /** A new session on a new transport: request ids, and so progress tokens, start again, and so do the oddities. */
  newSession(): void {
    this.progressTokens.reset()
    this.flagged.clear()
  }

  /** The frame that carried a request from the server, by its id: handed once, to the handler that answers it. */
  frameOfRequest(id: string | number): number | undefined {
    const seq = this.serverRequestFrames.get(id)
    this.serverRequestFrames.delete(id)
    return seq
  }

  /** The session ended: no request of the server's waits for its handler any more. */
  forgetRequests(): void {
    this.serverRequestFrames.clear()
  }

  /** One frame either way; `refused` when Parallax did not hand it on (only its progress bookkeeping counts then). */
  read(direction: 'out' | 'in', frame: Frame, message: JSONRPCMessage, refused?: string): void {
    if (frame.kind === 'request' && direction === 'out') {
      const token = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken
      if (token !== undefined && frame.id !== undefined) this.progressTokens.given(token, frame.id, frame.method ?? '')
    } else if (direction === 'in' && frame.id !== undefined && (frame.kind === 'response' || frame.kind === 'error'))
      this.progressTokens.finished(frame.id)
    else if (direction === 'out' && frame.method === 'notifications/cancelled') {
      // Parallax stopped waiting (a timeout): progress for that request may still come, and is no fault of the server's.
      const cancelled = (message as { params?: { requestId?: unknown } }).params?.requestId
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.progressTokens.finished(cancelled)
    }
    if (refused || direction !== 'in') return
    if (frame.kind === 'request' && frame.id !== undefined) this.onServerRequest(frame.id, frame.method, frame.seq)
    else if (frame.kind === 'notification') {
      const params = (message as { params?: Record<string, unknown> }).params
      if (frame.method! in LIST_CHANGED) this.onListChanged(frame.method!, params)
      else if (frame.method === 'notifications/message') this.onServerLog(params, frame.seq)
      else if (frame.method === 'notifications/progress') this.onProgress(params)
      else if (frame.method === 'notifications/resources/updated') this.onResourceUpdated(params)
    }
  }

  /** A request from the server: its frame noted for the answer; one for a capability the profile did not offer is an oddity (the SDK answers -32601). */
  private onServerRequest(id: string | number, method: string | undefined, seq: number | undefined): void {
    const missing = method ? ClientRole.unoffered(method, this.host.session.offered) : undefined
    if (missing)
      this.flagOddity(
        `unoffered:${missing}`,
        `the server sent ${method}, but Parallax did not offer the "${missing}" capability${this.host.profile ? ` (profile "${this.host.profile.name}")` : ''}; it was answered -32601`,
      )
    else if (this.serverRequestFrames.size < 10_000) this.serverRequestFrames.set(id, seq)
  }

  /** The server's own voice: its log message in the log, with its level and logger; what breaks the spec, flagged. */
  private onServerLog(params: unknown, frameSeq: number | undefined): void {
    const line = serverLogLine(params)
    this.host.emit({ type: 'log', source: 'server', level: line.level, text: line.text, server: { ...line.server, frameSeq } })
    if (!this.host.session.advertised.logging)
      this.flagOddity(
        'logging-unadvertised',
        'the server sends log messages (notifications/message) but did not advertise the "logging" capability in initialize',
      )
    const agreed = this.host.choices.agreedLogLevel
    if (line.offLevel !== undefined)
      this.flagOddity(
        `level:${line.offLevel}`,
        `the server sent a log message at level ${JSON.stringify(line.offLevel)}, which is none of the spec's levels (${LOG_LEVELS.join(', ')}); shown as info`,
      )
    else if (agreed && LOG_LEVELS.indexOf(line.server.level as LogLevel) < LOG_LEVELS.indexOf(agreed))
      this.flagOddity(
        `below:${agreed}`,
        `the server sent a "${line.server.level}" log message after agreeing to send "${agreed}" and above (logging/setLevel)`,
      )
  }

  /** Progress the SDK would call "for an unknown token": late for a request already answered (plumbing), or for a token never given (an oddity). */
  private onProgress(params: unknown): void {
    const verdict = this.progressTokens.progress(params)
    if (verdict.kind === 'late' && verdict.first)
      this.host.logLine(
        'debug',
        `progress for request ${verdict.requestId} (${verdict.method}) came after its answer, or after Parallax stopped waiting; nothing waits for it, so it is ignored`,
      )
    else if (verdict.kind === 'unknown')
      this.flagOddity(
        'progress-unknown',
        `the server sent progress for token ${verdict.token}, which Parallax never gave it (progress may only name the token of a request in progress)`,
      )
    else if (verdict.kind === 'backwards')
      this.flagOddity(
        `progress-backwards:${verdict.requestId}`,
        `progress for request ${verdict.requestId} (${verdict.method}) went down from ${verdict.from} to ${verdict.to}; the spec says it must increase with each notification`,
      )
  }

  /** An update of a resource: one the user subscribed to (the UI shows it and offers to read it again), else an oddity. */
  private onResourceUpdated(params: unknown): void {
    const uri = (params as { uri?: unknown } | undefined)?.uri
    if (typeof uri === 'string' && this.host.choices.subscribed(uri)) return
    this.flagOddity(
      'updated-unsubscribed',
      `the server sent notifications/resources/updated for ${typeof uri === 'string' ? uri : 'no URI'}, which Parallax never subscribed to (updates are for subscribed resources only)`,
    )
  }

  /** A list change: the list discovered again where the era's rules count it, else each list it names skipped as an oddity. */
  private onListChanged(notification: string, params: Record<string, unknown> | undefined): void {
    const { capability, methods } = LIST_CHANGED[notification]
    const why = this.ignoredChange(capability, params)
    if (why) {
      for (const method of methods)
        this.host.emit({
          type: 'discovery',
          method,
          status: 'skipped',
          trigger: 'list_changed',
          oddity: true,
          reason: `ignored ${notification}: ${why}`,
        })
      return
    }
    for (const method of methods) this.host.refresh(method, 'list_changed')
  }

  /** Why a list change does not count: in the 2026 era, one outside a stream that asked for it; in the 2025 era, one for an unadvertised list. */
  private ignoredChange(capability: string, params: Record<string, unknown> | undefined): string | undefined {
    const session = this.host.session
    if (session.era === '2026') {
      // The 2026 era sends list changes only on a subscriptions/listen stream that asked for them.
      const subscription = (params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_KEY]
      if (subscription === undefined)
        return 'it came outside any subscriptions/listen stream, and the 2026 era sends list changes only on one'
      return session.honorsListChange(capability)
        ? undefined
        : `the subscriptions/listen stream did not ask for ${capability} changes (or the server did not acknowledge them)`
    }
    return session.capabilities[capability] ? undefined : `the server never advertised the "${capability}" capability`
  }

  /** A protocol oddity, once per kind per session (the frames show every instance): a warning, never an error of Parallax's. */
  private flagOddity(kind: string, text: string): void {
    if (this.flagged.has(kind)) return
    this.flagged.add(kind)
    this.host.emit({ type: 'log', source: 'engine', level: 'warn', text: `protocol oddity: ${text}`, oddity: true })
  }
}
