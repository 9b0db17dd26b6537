import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import {
  MCP_2026_VERSION,
  mcpVersionAsk,
  type ClientProfile,
  type ConnectionOptions,
  type LogEvent,
  type LogLevel,
  type McpEra,
  type McpHandshakeEvent,
  type TransportKind,
} from '../contract'
import { now } from '../runtime/clock'
import { ConnectFailure, errorMessage } from '../runtime/errors'
import type { AnswerWatch } from '../runtime/httpAnswers'
import type { TappedFrame } from '../runtime/jsonRpcTap'
import { PARALLAX_VERSION } from '../version'
import { ChangeStream } from './changeStream'
import type { ClientRole } from './clientRole'
import { offeredCapabilities } from './clientTasks'
import { only2026Refusal, PROBE_ID_PREFIX, probeAnswerText, probeFailureText, STDIO_PROBE_MS, withLogLevel } from './eraWire'
import { loadEra2026 } from './loadEra2026'
import type { Fallback, SessionOpener } from './mcpTransports'
import type { ModernSession } from './modernSession'
import { discoveryRule, LIST_CHANGED_2025, NegotiationRecord } from './negotiation'
import { LegacySession, type McpSession } from './session'
import type { TapTransport } from './tapTransport'

export const CLIENT_INFO = { name: 'parallax', version: PARALLAX_VERSION }

/** What the era's session needs of its connection. */
export interface EraHost {
  readonly options: ConnectionOptions
  readonly profile: ClientProfile | undefined
  /** Puts Parallax's answers to what the server asks on each era's client (./clientRole.ts). */
  readonly role: Pick<ClientRole, 'install' | 'installModern'>
  generation(): number
  emit(event: Omit<McpHandshakeEvent, 'seq' | 'ts' | 'connectionId'>): void
  logLine(level: LogEvent['level'], text: string, source?: 'engine' | 'transport'): void
  /** The transport closed under the session of `generation`. */
  sessionClosed(generation: number, kind: TransportKind): void
  /** How the stdio server's process ended, in words, once it has. */
  processEnd(): string | undefined
  /** Chooses the keepalive probe for a new session: the rule it keeps, in words (./keepaliveProbe.ts). */
  keepaliveFor(era: McpEra, capabilities: Record<string, unknown>): string
  /** The log level the user asked for: in the 2026 era each request carries it (./sessionChoices.ts). */
  logLevel(): LogLevel | undefined
}

/** How the SDK begins its error for progress it has no handler for (its request was answered, or it never asked). */
const SDK_UNKNOWN_PROGRESS = 'Received a progress notification for an unknown token'

/**
 * The session, era by era (docs/architecture.md, "Two SDKs, one per MCP era"): the 2026 era offered through
 * `server/discover` on the 2.x client, else the 2025 `initialize` on the 1.x client, as the profile asks; what
 * the handshake frames said (the offer and its answer); and the session settled: the handshake event, with
 * the era, how it was reached and the rules the connection keeps. The transports say on which pipe or
 * address each offer goes (./mcpTransports.ts).
 */
export class EraSession implements SessionOpener {
  /** The negotiated session: the 1.x SDK's client in the 2025 era, the 2.x SDK's in the 2026 era (./session.ts). */
  private session: McpSession | undefined
  private serverCapabilities: Record<string, unknown> = {}
  private initializeRequest: Record<string, unknown> | undefined
  private initializeResult: Record<string, unknown> | undefined
  private initializeFrame: number | undefined
  /** The server/discover probe as sent, and its answer (with the frame that brought it). */
  private discoverRequest: Record<string, unknown> | undefined
  private discoverAnswer: { message: { result?: unknown; error?: unknown }; seq?: number } | undefined
  /** How this session's era was reached: what the profile asked, each offer and answer. */
  private negotiation = new NegotiationRecord({ mode: 'negotiate' }, undefined)
  private known2025: string | undefined
  /** The 2026 era's list changes (a subscriptions/listen stream), and the list-change rule in force. */
  private changes: ChangeStream | undefined

  constructor(private readonly host: EraHost) {}

  /** The session, once negotiated. */
  get current(): McpSession | undefined {
    return this.session
  }

  get era(): McpEra | undefined {
    return this.session?.era
  }

  /** What the server advertised (initialize's answer, or server/discover's). */
  get capabilities(): Record<string, unknown> {
    return this.serverCapabilities
  }

  /** The client capabilities Parallax offered in `initialize` (none in the 2026 era). */
  get offered(): Record<string, unknown> {
    return (this.initializeRequest?.capabilities ?? {}) as Record<string, unknown>
  }

  /** The client capabilities this session offered, either era: the 2026 request envelope's, or `initialize`'s. */
  get clientCapabilities(): Record<string, unknown> {
    const envelope = (this.discoverRequest?._meta ?? {}) as Record<string, unknown>
    const modern = envelope['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown> | undefined
    return this.current?.era === '2026' ? (modern ?? {}) : this.offered
  }

  /** The server capabilities `initialize` answered, as its frame carried them; else those negotiated. */
  get advertised(): Record<string, unknown> {
    return (this.initializeResult?.capabilities ?? this.serverCapabilities) as Record<string, unknown>
  }

  /** Whether the server agreed to send changes of this list on the 2026 era's stream. */
  honorsListChange(capability: string): boolean {
    return this.changes?.honors(capability) ?? false
  }

  /** A new attempt at the session: the era as the profile asks, except that a server known to be a 2025 server is not offered 2026 again. */
  begin(): void {
    this.initializeRequest = this.initializeResult = this.discoverRequest = this.discoverAnswer = undefined
    // A server that answered as a 2025 server when this connection was first made is not probed again on each reconnect.
    this.known2025 ??= this.negotiation.declined2026
    this.negotiation = new NegotiationRecord(mcpVersionAsk(this.host.profile?.mcp.protocolVersion), this.host.profile?.name, this.known2025)
  }

  get tries2026(): boolean {
    return this.negotiation.tries2026
  }

  get only2026(): boolean {
    return this.negotiation.only2026
  }

  get version2026(): string {
    return this.negotiation.version2026
  }

  get declined2026(): boolean {
    return this.negotiation.steps.some((step) => !step.accepted)
  }

  /** The handshake's frames, as the tap records them: initialize and its answer, the era probe and its answer. */
  read(direction: 'out' | 'in', frame: TappedFrame & { seq?: number }, message: JSONRPCMessage): void {
    const msg = message as { params?: Record<string, unknown>; result?: Record<string, unknown> }
    if (frame.method === 'initialize') {
      if (frame.kind === 'request') this.initializeRequest = msg.params
      else if (frame.kind === 'response') {
        this.initializeResult = msg.result
        this.initializeFrame = frame.seq
      }
    } else if (typeof frame.id === 'string' && frame.id.startsWith(PROBE_ID_PREFIX)) {
      // The 2.x client's era probe (server/discover): what was offered and what came back, for the handshake.
      if (direction === 'out') this.discoverRequest = msg.params
      else this.discoverAnswer = { message: message as { result?: unknown; error?: unknown }, seq: frame.seq }
    }
  }

  /** What Parallax changes in a message it sends: initialize's version (a profile of the 2025 era); a 2026 request's log level. */
  rewrite(message: JSONRPCMessage): JSONRPCMessage {
    const ask = this.negotiation.ask
    if (ask.mode === '2025-only') return askForVersion(message, ask.version)
    if (this.session?.era !== '2026') return message
    const level = this.host.logLevel()
    return level ? withLogLevel(message, level) : message
  }

  /**
   * Offers the 2026 era (`server/discover`, through the 2.x client) on a tapped transport. True when the
   * server took it (the session is settled); false when it gave no 2026 evidence (the 2025 era is next,
   * unless the profile asks for 2026 alone: then that is the failure). Anything else is thrown.
   */
  async offer2026(kind: TransportKind, tapped: TapTransport, answers?: AnswerWatch): Promise<boolean> {
    const generation = this.host.generation()
    const profile = this.host.profile?.mcp
    const offered = [this.negotiation.version2026]
    const connectTimeoutMs = this.host.options.connectTimeoutMs
    // On a pipe, silence means a 2025 server (the SDK's rule); waiting out the whole connect timeout for it would stall every such server.
    const timeoutMs = kind === 'stdio' && !this.negotiation.only2026 ? Math.min(STDIO_PROBE_MS, connectTimeoutMs) : connectTimeoutMs
    const started = now()
    // Over stdio the server process starts while the 2.x client loads (a transport starts once); a failure
    // to start is the probe's to report.
    if (kind === 'stdio') tapped.start().catch(() => {})
    const { probe2026, ModernSession } = await loadEra2026()
    const capabilities = offeredCapabilities(profile?.capabilities ?? {}, '2026')
    const probe = await probe2026(tapped, {
      clientInfo: profile?.clientInfo ?? CLIENT_INFO,
      capabilities,
      timeoutMs,
      stdio: kind === 'stdio',
    })
    if (probe.kind === 'failed') throw probe.error
    if (probe.kind === 'declined') {
      const answer = await this.declinedAnswer(kind, probe.verdict, timeoutMs, answers)
      this.negotiation.add({ method: 'server/discover', offered, accepted: false, answer, ...this.discoverFrame() })
      if (this.negotiation.only2026)
        throw new ConnectFailure(
          `the server did not take MCP ${offered[0]} (server/discover: ${answer}), and this profile asks for the 2026 era only (no fallback to initialize)`,
          kind === 'stdio' ? { transport: kind } : { transport: kind, error: answer },
        )
      this.host.logLine('info', `server/discover offered ${offered[0]}: ${answer}; falling back to the 2025 era (initialize)`, 'transport')
      return false
    }
    const client = probe.client
    client.onerror = (error) => {
      if (generation !== this.host.generation() || error.message.startsWith(SDK_UNKNOWN_PROGRESS)) return
      this.host.logLine('error', describeTransportError(error), 'transport')
    }
    client.onclose = () => this.host.sessionClosed(generation, kind)
    this.host.role.installModern(client, capabilities)
    this.session = new ModernSession(client)
    this.negotiation.add({
      method: 'server/discover',
      offered,
      accepted: true,
      answer: probeAnswerText(this.discoverAnswer?.message) ?? `supports ${this.session.protocolVersion}`,
      ...this.discoverFrame(),
    })
    await this.settle(kind, started)
    return true
  }

  /** The 2025 era on the 1.x client: `initialize` on the tapped transport (the pipe a declined probe used, or a fresh one). */
  async open2025(kind: TransportKind, tapped: TapTransport, fallback?: Fallback): Promise<void> {
    const generation = this.host.generation()
    const profile = this.host.profile?.mcp
    const clientInfo = profile?.clientInfo ?? CLIENT_INFO
    const capabilities = offeredCapabilities(profile?.capabilities ?? {}, '2025')
    const client = new Client(clientInfo, { capabilities })
    this.host.role.install(client, capabilities)
    client.onerror = (error) => {
      // Progress the SDK no longer waits for was already judged at the tap (./serverFrames.ts): late is plumbing, never given is an oddity.
      if (generation !== this.host.generation() || error.message.startsWith(SDK_UNKNOWN_PROGRESS)) return
      if (error.message.includes(PROBE_ID_PREFIX))
        return this.host.logLine(
          'info',
          'server/discover was answered after Parallax had fallen back to initialize (the server was slow to start?): connect again, or under the "mcp-2026" profile, to see it in the 2026 era',
          'transport',
        )
      this.host.logLine('error', describeTransportError(error), 'transport')
    }
    client.onclose = () => this.host.sessionClosed(generation, kind)
    this.session = new LegacySession(client, undefined)
    const started = now()
    try {
      await client.connect(tapped, { timeout: this.host.options.connectTimeoutMs })
    } catch (error) {
      throw only2026Refusal(error) ?? error
    }
    const asked = this.initializeRequest?.protocolVersion as string | undefined
    const answered = this.initializeResult?.protocolVersion as string | undefined
    this.session = new LegacySession(client, answered)
    this.negotiation.add({
      method: 'initialize',
      offered: asked ? [asked] : [],
      accepted: true,
      answer: answered ? `answered ${answered}` : 'answered',
      ...(this.initializeFrame !== undefined && { frameSeq: this.initializeFrame }),
    })
    await this.settle(kind, started, fallback)
  }

  /** The session is no longer used: forgotten at once; what it held is closed by the function returned. */
  detach(): () => Promise<void> {
    const session = this.session
    const changes = this.changes
    this.session = this.changes = undefined
    return async () => {
      await changes?.close()
      if (session) await session.close()
    }
  }

  /** What a server that did not take the 2026 era answered: its JSON-RPC answer, else its HTTP answer, else its silence or exit. */
  private async declinedAnswer(kind: TransportKind, verdict: string, timeoutMs: number, answers?: AnswerWatch): Promise<string> {
    const answered = probeAnswerText(this.discoverAnswer?.message)
    if (answered) return answered
    const http = await answers?.lastFailure()
    if (http) return `HTTP ${http.status}${http.statusText ? ` ${http.statusText}` : ''}${http.message ? `: ${http.message}` : ''}`
    const ended = this.host.processEnd()
    if (ended) return ended
    if (/closed/.test(verdict)) return 'the connection closed'
    // On a pipe, nothing else leaves no answer at all: the server stayed silent for the whole wait.
    return kind === 'stdio' ? `no answer within ${timeoutMs} ms` : probeFailureText(verdict)
  }

  private discoverFrame(): { frameSeq?: number } {
    return this.discoverAnswer?.seq !== undefined ? { frameSeq: this.discoverAnswer.seq } : {}
  }

  /** The session is negotiated: the handshake, with the era and how it was reached and the rules kept (the 2026 era's list-change stream opened first). */
  private async settle(kind: TransportKind, started: number, fallback?: Fallback): Promise<void> {
    const session = this.session!
    const era = session.era
    this.serverCapabilities = session.serverCapabilities
    const keepalive = this.host.keepaliveFor(era, this.serverCapabilities)
    let listChanged = LIST_CHANGED_2025
    if (era === '2026') {
      // Opened before the handshake is told, so the rules say what the server acknowledged.
      this.changes = new ChangeStream(
        (session as ModernSession).client,
        this.serverCapabilities,
        (level, text) => this.host.logLine(level, text),
        this.host.options.requestTimeoutMs,
      )
      listChanged = await this.changes.open()
    }
    const envelope = (this.discoverRequest?._meta ?? {}) as Record<string, unknown>
    const modern = era === '2026'
    const profile = this.host.profile
    this.host.emit({
      type: 'handshake',
      protocol: 'mcp',
      transport: kind,
      requestedProtocolVersion: modern
        ? ((envelope['io.modelcontextprotocol/protocolVersion'] as string | undefined) ?? MCP_2026_VERSION)
        : (this.initializeRequest?.protocolVersion as string | undefined),
      protocolVersion: session.protocolVersion,
      clientInfo: profile?.mcp.clientInfo ?? CLIENT_INFO,
      clientCapabilities: modern
        ? ((envelope['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown> | undefined) ?? {})
        : ((this.initializeRequest?.capabilities as Record<string, unknown>) ?? {}),
      serverCapabilities: this.serverCapabilities,
      serverInfo: session.serverInfo,
      instructions: session.instructions,
      durationMs: now() - started,
      ...(kind === 'sse' && fallback && { fallback }),
      ...(profile && { profile: profile.name }),
      era,
      negotiation: this.negotiation.result(era, session.protocolVersion),
      rules: { discovery: discoveryRule(era), listChanged, keepalive },
    })
  }
}

/**
 * The SDK reports a message that is JSON but not JSON-RPC with its schema's issue list; say it in one
 * line instead. A line that is not JSON at all already reads well ("… is not valid JSON").
 */
function describeTransportError(error: Error): string {
  if (error.name === 'ZodError' || error.message.trimStart().startsWith('['))
    return 'the server sent a message that is not valid JSON-RPC (it is JSON, but has neither a method nor a result/error for an id)'
  return errorMessage(error)
}

/** The profile's protocol version goes into `initialize` (the SDK always asks for its newest). */
function askForVersion(message: JSONRPCMessage, version: string): JSONRPCMessage {
  const request = message as { method?: string; params?: Record<string, unknown> }
  return request.method === 'initialize'
    ? ({ ...message, params: { ...request.params, protocolVersion: version } } as JSONRPCMessage)
    : message
}
