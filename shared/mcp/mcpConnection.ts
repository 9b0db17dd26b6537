import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolResultSchema,
  EmptyResultSchema,
  ErrorCode,
  ListToolsResultSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'
import {
  CommandError,
  LOG_LEVELS,
  MCP_2026_VERSION,
  describeSpec,
  mcpVersionAsk,
  asksProgress,
  redactArgs,
  redactText,
  type ClientProfile,
  type ConnectionOptions,
  type DiscoveryMethod,
  type DiscoveryTrigger,
  type FailureCause,
  type McpHandshakeEvent,
  type LogLevel,
  type RequestAnswer,
  type Root,
  type SavedTarget,
  type ServerRequestAnswer,
  type TargetSpec,
  toolResultState,
  type TransportKind,
  type Turn,
  type TurnResult,
} from '../contract'
import type { EventLog } from '../runtime/eventLog'
import { now } from '../runtime/clock'
import { JsonRpcTap, type TappedFrame } from '../runtime/jsonRpcTap'
import { noteWholeInFrame } from '../runtime/safeJson'
import {
  ProbeError,
  SupervisedConnection,
  type CallEndpoint,
  type CallOptions,
  type TurnOptions,
  type TaskOperations,
  type ExchangeOptions,
  type ProbeOutcome,
} from '../runtime/supervisedConnection'
import { ConnectFailure, errorMessage, jsonRpcErrorWords, networkCause, networkFailure, networkPhrase } from '../runtime/errors'
import { AnswerWatch } from '../runtime/httpAnswers'
import type { ConnectionAuth } from '../auth/connectionAuth'
import { mcpCallMessage, mcpErrorMessage, mcpResultMessage, type RequestIds, type SentRequest } from './conversationTurns'
import { PARALLAX_VERSION } from '../version'
import { DISCOVERY_STEPS, LIST_CHANGED, runDiscoveryStep } from './discovery'
import { pipeLines, wireText } from './lines'
import { ServerProcessTransport } from './stdioTransport'
import { checkRequest, mcpAnswerMessage, mcpRequestErrorMessage, mcpRequestMessage, resultProblems } from './requests'
import { ProgressTokens, serverLogLine } from './serverVoice'
import { TapTransport } from './tapTransport'
import { McpTasks } from './mcpTasks'
import { ClientRole, type ClientRoleSettings } from './clientRole'
import { offeredCapabilities } from './clientTasks'
import { LegacySession, type McpSession, type SessionRequestOptions } from './session'
import type { ModernSession } from './modernSession'
import type * as Era2026 from './era2026'
import {
  LOG_LEVEL_KEY,
  only2026HintInBody,
  only2026Refusal,
  PROBE_ID_PREFIX,
  probeAnswerText,
  probeFailureText,
  STDIO_PROBE_MS,
  SUBSCRIPTION_ID_KEY,
  withLogLevel,
} from './eraWire'
import { discoveryRule, keepaliveRule, LIST_CHANGED_2025, NegotiationRecord } from './negotiation'
import { ChangeStream } from './changeStream'

export const CLIENT_INFO = { name: 'parallax', version: PARALLAX_VERSION }

/** The 2.x client's part (./era2026.ts), loaded when a connection first offers the 2026 era. */
let era2026: typeof Era2026 | undefined
async function loadEra2026(): Promise<typeof Era2026> {
  return (era2026 ??= await import('./era2026'))
}

export interface McpConnectionSettings {
  profile?: ClientProfile
  /** How the connection answers what the server asks: roots, a scripted responder, whether a person can be asked. */
  client?: ClientRoleSettings
  /** Authorization over HTTP: the target's token on each request, and a sign-in where a challenge asks for one (shared/auth). */
  auth?: ConnectionAuth
}

type Catalog = Partial<Record<DiscoveryMethod, unknown[]>>

/**
 * One MCP server: transport (stdio, streamable HTTP, or SSE as fallback), frame tap, the protocol era
 * (2026-07-28 negotiated through server/discover, else the 2025 initialize), capability-gated discovery,
 * list_changed handling and keepalive probing, each by the era's rules.
 */
export class McpConnection extends SupervisedConnection {
  /** The negotiated session: the 1.x SDK's client in the 2025 era, the 2.x SDK's in the 2026 era (./session.ts). */
  private session: McpSession | undefined
  private stdio: ServerProcessTransport | undefined
  /**
   * Every transport opened since the last teardown, whatever became of it: a session's, and one an era
   * probe left without a session (a refused 2026 offer). Teardown closes them all, so no server process
   * or socket outlives the connection.
   */
  private readonly transports = new Set<TapTransport>()
  private readonly tap: JsonRpcTap
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
  private probeMethod: 'tools/list' | 'ping' | 'server/discover' = 'ping'
  /** Why the probe changed from the era's first choice, once it did. */
  private probeChange: string | undefined
  /** The latest catalog, per list method (for hosts such as the CLI that print it). */
  readonly catalog: Catalog = {}
  private readonly refreshing = new Map<DiscoveryMethod, Promise<void>>()
  private readonly refreshAgain = new Set<DiscoveryMethod>()
  /** The id of the last request handed to the transport (the SDK sends synchronously as it asks). */
  private lastRequestId: string | number | undefined
  /** Tool calls in flight, by request id: the number of the frame that answered each, once it came. */
  private readonly answeredBy = new Map<string | number, { seq: number | undefined; cut: boolean } | undefined>()
  /** Why this session is on legacy SSE, when `auto` fell back to it (the handshake says so). */
  private fallback: McpHandshakeEvent['fallback']
  /** The stdio server's last lines on stderr and how its process ended: part of saying why it failed. */
  private stderrTail: string[] = []
  private exited: { code: number | null; signal: string | null } | undefined
  /** The progress tokens given to the server this session, and what became of their requests. */
  private readonly progressTokens = new ProgressTokens()
  /** The log level the user asked for (asked again after a reconnect), and the one the server last agreed to this session. */
  private logLevel: LogLevel | undefined
  private agreedLogLevel: LogLevel | undefined
  /** The protocol oddities already flagged this session, by kind: each kind once, its frames show every instance. */
  private readonly flagged = new Set<string>()
  /** The client's side: answers the server's sampling, elicitation and roots requests. */
  private readonly role: ClientRole
  /** The frame of each request the server sent, by id, until its handler picks it up. */
  private readonly serverRequestFrames = new Map<string | number, number | undefined>()
  /** The user's requests in flight (tool calls and requests by method), by JSON-RPC id: what `cancelRequest` aborts. */
  private readonly cancellable = new Map<string | number, AbortController>()
  /** The resources the user subscribed to: subscribed again after a reconnect (a new session starts with none). */
  private readonly subscriptions = new Set<string>()

  constructor(
    id: string,
    target: SavedTarget,
    log: EventLog,
    options: ConnectionOptions,
    private readonly settings: McpConnectionSettings = {},
  ) {
    super(id, target, log, options, 'mcp')
    this.tap = new JsonRpcTap('mcp', 'stdio', (frame) => this.emit(frame), this.spill)
    this.role = new ClientRole(
      settings.client ?? {},
      (event) => this.emit(event),
      (id) => {
        const seq = this.serverRequestFrames.get(id)
        this.serverRequestFrames.delete(id)
        return seq
      },
      (level, text) => this.logLine(level, text),
      (params) => this.mcpTasks.turnOfRequest(params),
    )
  }

  /** The request timeout, and whether to ask for progress: a token the server may report against, each report (a frame) restarting the timeout. */
  private requestOptions(progress = false): SessionRequestOptions {
    return progress
      ? { timeout: this.options.requestTimeoutMs, resetTimeoutOnProgress: true, onprogress: () => {} }
      : { timeout: this.options.requestTimeoutMs }
  }

  protected override get pid(): number | undefined {
    return this.stdio?.pid ?? undefined
  }

  protected async establish(): Promise<void> {
    const spec = this.target.spec
    this.tap.reset()
    this.initializeRequest = this.initializeResult = this.discoverRequest = this.discoverAnswer = undefined
    // A server that answered as a 2025 server when this connection was first made is not probed again on each reconnect.
    this.known2025 ??= this.negotiation.declined2026
    this.negotiation = new NegotiationRecord(
      mcpVersionAsk(this.settings.profile?.mcp.protocolVersion),
      this.settings.profile?.name,
      this.known2025,
    )
    if (spec.kind === 'a2a' || spec.kind === 'acp')
      throw new Error(`an ${spec.kind.toUpperCase()} target cannot be opened as an MCP connection`)
    if (spec.kind === 'mcp-stdio') {
      try {
        return await this.connectStdio(spec)
      } catch (error) {
        throw await this.stdioFailure(spec, error)
      }
    }
    this.fallback = undefined
    if (this.negotiation.tries2026) {
      if (spec.transport === 'sse') {
        if (this.negotiation.only2026)
          throw new ConnectFailure(
            `MCP ${this.negotiation.version2026} has no HTTP+SSE transport, and this target is set to legacy SSE: set its transport to "auto" or "streamable-http", or connect under a profile that asks for the 2025 era`,
            { transport: 'sse' },
          )
      } else {
        let probeFailure: ConnectFailure | undefined
        try {
          if (await this.connectHttp2026(spec)) return
        } catch (error) {
          probeFailure = error as ConnectFailure
        }
        // A 2026-only profile's refusal stands as it is; any other failure of the probe is the HTTP attempt's.
        const declined = this.negotiation.steps.some((step) => !step.accepted)
        if (probeFailure) throw spec.transport === 'auto' && !declined ? sseNotTried(probeFailure) : probeFailure
      }
    }
    if (spec.transport !== 'auto') return this.connectHttp(spec.transport, spec)
    let first: ConnectFailure
    try {
      return await this.connectHttp('streamable-http', spec)
    } catch (error) {
      first = error as ConnectFailure
    }
    // Legacy SSE only where the MCP spec's backwards compatibility points to it (docs/architecture.md): a
    // 404 or 405 to the first POST. Any other answer is the server's own word on this request, shown as it is.
    const status = first.failure.status
    if (status !== 404 && status !== 405) throw sseNotTried(first)
    const why = `the first POST answered HTTP ${status}, which the MCP spec (backwards compatibility) takes as a server that may speak only legacy HTTP+SSE`
    this.logLine('info', `streamable HTTP answered initialize with HTTP ${status}; falling back to legacy SSE: ${why}`, 'transport')
    await this.closeClient()
    this.fallback = { from: 'streamable-http', why, first: first.failure }
    try {
      await this.connectHttp('sse', spec)
    } catch (error) {
      const sse = error as ConnectFailure
      throw new ConnectFailure(`${first.message}; then, tried because of the ${status}, ${sse.message}`, {
        ...sse.failure,
        fallback: { tried: true, why, first: first.failure },
      })
    }
  }

  /** Connects over one HTTP transport in the 2025 era; a failure says what the server answered (status, its words, its challenge) or where it could not be reached. */
  private async connectHttp(kind: 'streamable-http' | 'sse', spec: Extract<TargetSpec, { kind: 'mcp-http' }>): Promise<void> {
    const answers = new AnswerWatch()
    const fetch = this.httpFetch(answers)
    try {
      await this.connect2025(kind, this.tapped(kind, kind === 'sse' ? sseTransport(spec, fetch) : streamableTransport(spec, fetch)))
    } catch (error) {
      throw await this.httpConnectFailure(kind, spec.url, error, answers)
    }
  }

  /**
   * Offers the 2026 era over HTTP: a POST of `server/discover` through the 2.x transport (the era's headers,
   * no session). True when the server took it; false when it gave no 2026 evidence (a 2025 server, met
   * next by the 2025 path, which says what it answers); a failure that says nothing about the era (a
   * sign-in wall, an outage) is the connection's failure.
   */
  private async connectHttp2026(spec: Extract<TargetSpec, { kind: 'mcp-http' }>): Promise<boolean> {
    const answers = new AnswerWatch()
    const { ModernHttpTransport } = await loadEra2026()
    const transport = new ModernHttpTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch: this.httpFetch(answers) })
    const tapped = this.tapped('streamable-http', transport as unknown as Transport)
    let taken: boolean
    try {
      taken = await this.connect2026('streamable-http', tapped, answers)
    } catch (error) {
      throw error instanceof ConnectFailure && error.failure.transport
        ? error
        : await this.httpConnectFailure('streamable-http', spec.url, error, answers)
    }
    if (!taken) await tapped.close().catch(() => {})
    return taken
  }

  private httpFetch(answers: AnswerWatch): typeof globalThis.fetch {
    const auth = this.settings.auth
    return auth ? auth.wrap(answers.fetch) : answers.fetch
  }

  /** What an HTTP attempt met, and a sign-in where a challenge needs a person. */
  private async httpConnectFailure(
    kind: 'streamable-http' | 'sse',
    url: string,
    error: unknown,
    answers: AnswerWatch,
  ): Promise<ConnectFailure> {
    const failure = await httpFailure(kind, url, error, answers)
    const refused = only2026HintInBody(failure.failure.body)
    if (refused) return new ConnectFailure(`${failure.message}${refused}`, failure.failure)
    // A challenge Parallax could not answer without a person: the failure says a sign-in is needed, and why.
    const required = this.settings.auth?.required
    const status = failure.failure.status
    if (required && (status === 401 || status === 403))
      return new ConnectFailure(`${failure.message}; sign-in: ${required.why}`, { ...failure.failure, auth: required })
    return failure
  }

  /**
   * Over stdio the 2026 probe runs in place, on the pipe the session then uses, so its frames are tapped
   * like any other; a server that exits on it (some stop at any request before initialize) is started
   * again for the 2025 era.
   */
  private async connectStdio(spec: Extract<TargetSpec, { kind: 'mcp-stdio' }>): Promise<void> {
    if (this.negotiation.tries2026) {
      const tapped = this.tapped('stdio', this.stdioTransport(spec))
      if (await this.connect2026('stdio', tapped)) return
      if (!this.exited) return this.connect2025('stdio', tapped)
      this.logLine(
        'info',
        `the server process ${exitPhrase(this.exited)} on server/discover; starting it again for the 2025 era`,
        'transport',
      )
      await tapped.close().catch(() => {})
    }
    await this.connect2025('stdio', this.tapped('stdio', this.stdioTransport(spec)))
  }

  /** Why a stdio server could not be reached: the whole command line, how its process ended, its last words on stderr. */
  private async stdioFailure(spec: Extract<TargetSpec, { kind: 'mcp-stdio' }>, error: unknown): Promise<ConnectFailure> {
    await new Promise((resolve) => setImmediate(resolve)) // stderr's last lines, still in the pipe
    const cause = this.stdioCause(spec)
    const code = (error as { code?: unknown } | undefined)?.code
    if (typeof code === 'string') cause.code = code
    cause.error = errorMessage(error)
    const said = cause.stderr?.length ? `; stderr: ${cause.stderr.at(-1)}` : ''
    const message =
      typeof code === 'string'
        ? `cannot run ${cause.command}: ${cause.error}`
        : this.exited
          ? `the server process ${exitPhrase(this.exited)} before the handshake completed (${cause.command})${said}`
          : `${cause.error} (${cause.command})${said}`
    return new ConnectFailure(message, cause)
  }

  private stdioCause(spec: Extract<TargetSpec, { kind: 'mcp-stdio' }>): FailureCause {
    return {
      transport: 'stdio',
      command: describeSpec({ ...spec, args: redactArgs(spec.args) }),
      ...(this.exited && { exit: this.exited }),
      ...(this.stderrTail.length && { stderr: [...this.stderrTail] }),
    }
  }

  /** A transport with the frame tap around it, for this generation of the connection. */
  private tapped(kind: TransportKind, transport: Transport): TapTransport {
    const generation = this.generation
    this.transport = this.tap.transport = kind
    this.progressTokens.reset()
    this.flagged.clear()
    this.agreedLogLevel = undefined
    const tapped = new TapTransport(
      transport,
      (direction, message, ts, refused) => this.onFrame(generation, direction, message, ts, refused),
      (message) => this.rewrite(message),
      (note) => {
        if (generation === this.generation) this.logLine('warn', note, 'transport')
      },
    )
    this.transports.add(tapped)
    return tapped
  }

  /** What Parallax changes in a message it sends: initialize's version (a profile of the 2025 era); a 2026 request's log level. */
  private rewrite(message: JSONRPCMessage): JSONRPCMessage {
    const ask = this.negotiation.ask
    if (ask.mode === '2025-only') return askForVersion(message, ask.version)
    if (this.session?.era === '2026' && this.logLevel) return withLogLevel(message, this.logLevel)
    return message
  }

  /**
   * Offers the 2026 era (`server/discover`, through the 2.x client) on a tapped transport. True when the
   * server took it (the session is settled); false when it gave no 2026 evidence (the 2025 era is next,
   * unless the profile asks for 2026 alone: then that is the failure). Anything else is thrown.
   */
  private async connect2026(kind: TransportKind, tapped: TapTransport, answers?: AnswerWatch): Promise<boolean> {
    const generation = this.generation
    const profile = this.settings.profile?.mcp
    const offered = [this.negotiation.version2026]
    // On a pipe, silence means a 2025 server (the SDK's rule); waiting out the whole connect timeout for it would stall every such server.
    const timeoutMs =
      kind === 'stdio' && !this.negotiation.only2026
        ? Math.min(STDIO_PROBE_MS, this.options.connectTimeoutMs)
        : this.options.connectTimeoutMs
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
      this.logLine('info', `server/discover offered ${offered[0]}: ${answer}; falling back to the 2025 era (initialize)`, 'transport')
      return false
    }
    const client = probe.client
    client.onerror = (error) => {
      if (generation !== this.generation || error.message.startsWith(SDK_UNKNOWN_PROGRESS)) return
      this.logLine('error', describeTransportError(error), 'transport')
    }
    client.onclose = () => this.onSessionClosed(generation, kind)
    this.role.installModern(client, capabilities)
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

  /** What a server that did not take the 2026 era answered: its JSON-RPC answer, else its HTTP answer, else its silence or exit. */
  private async declinedAnswer(kind: TransportKind, verdict: string, timeoutMs: number, answers?: AnswerWatch): Promise<string> {
    const answered = probeAnswerText(this.discoverAnswer?.message)
    if (answered) return answered
    const http = await answers?.lastFailure()
    if (http) return `HTTP ${http.status}${http.statusText ? ` ${http.statusText}` : ''}${http.message ? `: ${http.message}` : ''}`
    if (this.exited) return `the server process ${exitPhrase(this.exited)}`
    if (/closed/.test(verdict)) return 'the connection closed'
    // On a pipe, nothing else leaves no answer at all: the server stayed silent for the whole wait.
    return kind === 'stdio' ? `no answer within ${timeoutMs} ms` : probeFailureText(verdict)
  }

  private discoverFrame(): { frameSeq?: number } {
    return this.discoverAnswer?.seq !== undefined ? { frameSeq: this.discoverAnswer.seq } : {}
  }

  /** The 2025 era on the 1.x client: `initialize` on the tapped transport (the pipe a declined probe used, or a fresh one). */
  private async connect2025(kind: TransportKind, tapped: TapTransport): Promise<void> {
    const generation = this.generation
    const profile = this.settings.profile?.mcp
    const clientInfo = profile?.clientInfo ?? CLIENT_INFO
    const capabilities = offeredCapabilities(profile?.capabilities ?? {}, '2025')
    const client = new Client(clientInfo, { capabilities })
    this.role.install(client, capabilities)
    client.onerror = (error) => {
      // Progress the SDK no longer waits for was already judged at the tap (see onProgress): late is plumbing, never given is an oddity.
      if (generation !== this.generation || error.message.startsWith(SDK_UNKNOWN_PROGRESS)) return
      if (error.message.includes(PROBE_ID_PREFIX))
        return this.logLine(
          'info',
          'server/discover was answered after Parallax had fallen back to initialize (the server was slow to start?): connect again, or under the "mcp-2026" profile, to see it in the 2026 era',
          'transport',
        )
      this.logLine('error', describeTransportError(error), 'transport')
    }
    client.onclose = () => this.onSessionClosed(generation, kind)
    this.session = new LegacySession(client, undefined)
    const started = now()
    try {
      await client.connect(tapped, { timeout: this.options.connectTimeoutMs })
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
    await this.settle(kind, started)
  }

  /** The transport closed under a session: over stdio, say how the process ended. */
  private onSessionClosed(generation: number, kind: TransportKind): void {
    const spec = this.target.spec
    if (kind !== 'stdio' || spec.kind !== 'mcp-stdio') return this.onTransportClosed(generation, 'server closed the connection')
    const exited = this.exited ? `server process ${exitPhrase(this.exited)}` : 'server process exited'
    this.onTransportClosed(generation, exited, this.stdioCause(spec))
  }

  /** The session is negotiated: the handshake (with the era and how it was reached), then what the era asks after it, then discovery. */
  private async settle(kind: TransportKind, started: number): Promise<void> {
    const session = this.session!
    const era = session.era
    this.serverCapabilities = session.serverCapabilities
    this.probeMethod = this.serverCapabilities.tools ? 'tools/list' : era === '2026' ? 'server/discover' : 'ping'
    this.probeChange = undefined
    let listChanged = LIST_CHANGED_2025
    if (era === '2026') {
      // Opened before the handshake is told, so the rules say what the server acknowledged.
      this.changes = new ChangeStream(
        (session as ModernSession).client,
        this.serverCapabilities,
        (level, text) => this.logLine(level, text),
        this.options.requestTimeoutMs,
      )
      listChanged = await this.changes.open()
    }
    const envelope = (this.discoverRequest?._meta ?? {}) as Record<string, unknown>
    const modern = era === '2026'
    const clientInfo = this.settings.profile?.mcp.clientInfo ?? CLIENT_INFO
    this.emit({
      type: 'handshake',
      protocol: 'mcp',
      transport: kind,
      requestedProtocolVersion: modern
        ? ((envelope['io.modelcontextprotocol/protocolVersion'] as string | undefined) ?? MCP_2026_VERSION)
        : (this.initializeRequest?.protocolVersion as string | undefined),
      protocolVersion: session.protocolVersion,
      clientInfo,
      clientCapabilities: modern
        ? ((envelope['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown> | undefined) ?? {})
        : ((this.initializeRequest?.capabilities as Record<string, unknown>) ?? {}),
      serverCapabilities: this.serverCapabilities,
      serverInfo: session.serverInfo,
      instructions: session.instructions,
      durationMs: now() - started,
      ...(kind === 'sse' && this.fallback && { fallback: this.fallback }),
      ...(this.settings.profile && { profile: this.settings.profile.name }),
      era,
      negotiation: this.negotiation.result(era, session.protocolVersion),
      rules: { discovery: discoveryRule(era), listChanged, keepalive: keepaliveRule(era, this.probeMethod) },
    })
    if (modern) {
      if (this.logLevel)
        this.logLine('info', `asking for log messages at "${this.logLevel}" and above on each request, as before reconnecting (2026 era)`)
    } else {
      await this.subscribeAgain()
      if (this.logLevel && this.serverCapabilities.logging) {
        // A new session starts at the server's default: ask again for what the user chose.
        await this.askLogLevel(this.logLevel, ' again, as before reconnecting,').catch((error: unknown) =>
          this.logLine('warn', `could not ask the server again for log level "${this.logLevel}": ${errorMessage(error)}`),
        )
      }
    }
    await this.discover('initial')
  }

  /** Asks the server for its log messages at `level` and above (`logging/setLevel`); kept for reconnects. */
  override async setLogLevel(level: LogLevel): Promise<void> {
    const session = this.session
    if (!session || !this.isLive) throw new CommandError(`not connected (${this.state})`, 'failed')
    if (session.era === '2026') {
      // The 2026 era has no logging/setLevel: the level rides each request, and a request without one gets no log messages.
      this.logLevel = this.agreedLogLevel = level
      this.logLine(
        'info',
        `asking for log messages at "${level}" and above on each request from now on (_meta ${LOG_LEVEL_KEY}: the 2026 era has no logging/setLevel)`,
      )
      return
    }
    if (!this.serverCapabilities.logging)
      throw new CommandError(
        'this server did not advertise the "logging" capability, so it offers no logging/setLevel (its log messages, if any, still show)',
        'invalid-input',
      )
    try {
      await this.askLogLevel(level)
    } catch (error) {
      throw new CommandError(`the server refused logging/setLevel "${level}": ${errorMessage(error)}`, 'failed', undefined)
    }
    this.logLevel = level
  }

  /** After a reconnect: the user's subscriptions again (a new session, a new process over stdio, starts with none). */
  private async subscribeAgain(): Promise<void> {
    if (this.subscriptions.size === 0) return
    const uris = [...this.subscriptions]
    if (!(this.serverCapabilities.resources as { subscribe?: unknown } | undefined)?.subscribe) {
      this.subscriptions.clear()
      this.logLine(
        'warn',
        `the server no longer advertises resources.subscribe: ${uris.length} subscription(s) dropped (${uris.join(', ')})`,
      )
      return
    }
    for (const uri of uris) {
      try {
        await this.session!.request('resources/subscribe', { uri }, this.requestOptions(), EmptyResultSchema)
      } catch (error) {
        this.subscriptions.delete(uri)
        this.logLine('warn', `could not subscribe again to ${uri}: ${errorMessage(error)}`)
      }
    }
    if (this.subscriptions.size)
      this.logLine('info', `subscribed again, as before reconnecting, to ${[...this.subscriptions].join(', ')} (resources/subscribe)`)
  }

  private async askLogLevel(level: LogLevel, how = ''): Promise<void> {
    await this.session!.request('logging/setLevel', { level }, this.requestOptions(), EmptyResultSchema)
    this.agreedLogLevel = level
    this.logLine('info', `asked the server${how} for log messages at "${level}" and above (logging/setLevel)`)
  }

  private stdioTransport(spec: Extract<TargetSpec, { kind: 'mcp-stdio' }>): Transport {
    const generation = this.generation
    this.stderrTail = []
    this.exited = undefined
    const transport = new ServerProcessTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      maxMessageBytes: this.options.maxMessageBytes,
      exitGraceMs: this.options.exitGraceMs,
      onExit: (exit) => {
        if (generation === this.generation) this.exited = exit
      },
    })
    if (transport.stderr) {
      pipeLines(transport.stderr, (line) => {
        if (generation !== this.generation) return
        this.stderrTail = [...this.stderrTail.slice(-(STDERR_TAIL - 1)), line]
        this.logLine('info', line, 'stderr')
      })
    }
    this.stdio = transport
    return transport
  }

  private onFrame(generation: number, direction: 'out' | 'in', message: JSONRPCMessage, ts: number, refused?: string): number | undefined {
    if (generation !== this.generation) return undefined
    const frame: TappedFrame & { seq?: number } = this.tap.record(direction, message, ts, refused, wireText.get(message))
    wireText.delete(message) // recorded: the text it travelled as may go
    if (frame.kind === 'request' && direction === 'out') {
      this.lastRequestId = frame.id
      const token = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken
      if (token !== undefined && frame.id !== undefined) this.progressTokens.given(token, frame.id, frame.method ?? '')
    } else if (direction === 'in' && frame.id !== undefined && (frame.kind === 'response' || frame.kind === 'error'))
      this.progressTokens.finished(frame.id)
    else if (direction === 'out' && frame.method === 'notifications/cancelled') {
      // Parallax stopped waiting (a timeout): progress for that request may still come, and is no fault of the server's.
      const cancelled = (message as { params?: { requestId?: unknown } }).params?.requestId
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.progressTokens.finished(cancelled)
    }
    if (
      direction === 'in' &&
      frame.id !== undefined &&
      this.answeredBy.has(frame.id) &&
      (frame.kind === 'response' || frame.kind === 'error')
    )
      this.answeredBy.set(frame.id, { seq: frame.seq, cut: frame.truncated !== undefined })
    if (refused) return frame.seq
    if (direction === 'in' && frame.kind === 'request' && frame.id !== undefined) this.onServerRequest(frame.id, frame.method, frame.seq)
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
    if (direction === 'in' && frame.kind === 'notification') {
      if (frame.method! in LIST_CHANGED) this.onListChanged(frame.method!, msg.params)
      else if (frame.method === 'notifications/message') this.onServerLog(msg.params, frame.seq)
      else if (frame.method === 'notifications/progress') this.onProgress(msg.params)
      else if (frame.method === 'notifications/resources/updated') this.onResourceUpdated(msg.params)
    }
    return frame.seq
  }

  /** The server's own voice: its log message in the log, with its level and logger; what breaks the spec, flagged. */
  private onServerLog(params: unknown, frameSeq: number | undefined): void {
    const line = serverLogLine(params)
    this.emit({ type: 'log', source: 'server', level: line.level, text: line.text, server: { ...line.server, frameSeq } })
    const capabilities = (this.initializeResult?.capabilities ?? this.serverCapabilities) as Record<string, unknown>
    if (!capabilities.logging)
      this.flagOddity(
        'logging-unadvertised',
        'the server sends log messages (notifications/message) but did not advertise the "logging" capability in initialize',
      )
    if (line.offLevel !== undefined)
      this.flagOddity(
        `level:${line.offLevel}`,
        `the server sent a log message at level ${JSON.stringify(line.offLevel)}, which is none of the spec's levels (${LOG_LEVELS.join(', ')}); shown as info`,
      )
    else if (this.agreedLogLevel && LOG_LEVELS.indexOf(line.server.level as LogLevel) < LOG_LEVELS.indexOf(this.agreedLogLevel))
      this.flagOddity(
        `below:${this.agreedLogLevel}`,
        `the server sent a "${line.server.level}" log message after agreeing to send "${this.agreedLogLevel}" and above (logging/setLevel)`,
      )
  }

  /** Progress the SDK would call "for an unknown token": late for a request already answered (plumbing), or for a token never given (an oddity). */
  private onProgress(params: unknown): void {
    const verdict = this.progressTokens.progress(params)
    if (verdict.kind === 'late' && verdict.first)
      this.logLine(
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
    if (typeof uri === 'string' && this.subscriptions.has(uri)) return
    this.flagOddity(
      'updated-unsubscribed',
      `the server sent notifications/resources/updated for ${typeof uri === 'string' ? uri : 'no URI'}, which Parallax never subscribed to (updates are for subscribed resources only)`,
    )
  }

  /** A protocol oddity, once per kind per session (the frames show every instance): a warning, never an error of Parallax's. */
  private flagOddity(kind: string, text: string): void {
    if (this.flagged.has(kind)) return
    this.flagged.add(kind)
    this.emit({ type: 'log', source: 'engine', level: 'warn', text: `protocol oddity: ${text}`, oddity: true })
  }

  private onListChanged(notification: string, params: Record<string, unknown> | undefined): void {
    const { capability, methods } = LIST_CHANGED[notification]
    if (this.session?.era === '2026') {
      // The 2026 era sends list changes only on a subscriptions/listen stream that asked for them.
      const subscription = (params?._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_KEY]
      const why =
        subscription === undefined
          ? 'it came outside any subscriptions/listen stream, and the 2026 era sends list changes only on one'
          : this.changes?.honors(capability)
            ? undefined
            : `the subscriptions/listen stream did not ask for ${capability} changes (or the server did not acknowledge them)`
      if (why) {
        for (const method of methods)
          this.emit({
            type: 'discovery',
            method,
            status: 'skipped',
            trigger: 'list_changed',
            oddity: true,
            reason: `ignored ${notification}: ${why}`,
          })
        return
      }
    } else if (!this.serverCapabilities[capability]) {
      for (const method of methods) {
        this.emit({
          type: 'discovery',
          method,
          status: 'skipped',
          trigger: 'list_changed',
          oddity: true,
          reason: `ignored ${notification}: the server never advertised the "${capability}" capability`,
        })
      }
      return
    }
    for (const method of methods) void this.refresh(method, 'list_changed')
  }

  /** Re-runs discovery for one list; concurrent requests for the same list coalesce into one more run. */
  private refresh(method: DiscoveryMethod, trigger: DiscoveryTrigger): Promise<void> {
    const running = this.refreshing.get(method)
    if (running) {
      this.refreshAgain.add(method)
      return running
    }
    const run = (async () => {
      do {
        this.refreshAgain.delete(method)
        await this.discover(trigger, method)
      } while (this.refreshAgain.has(method) && this.isLive)
    })().finally(() => this.refreshing.delete(method))
    this.refreshing.set(method, run)
    return run
  }

  /** Waits out notifications still in flight and the refreshes they start. */
  override async settled(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 100))
    while (this.refreshing.size) await Promise.all(this.refreshing.values())
  }

  override catalogEntries(method: DiscoveryMethod): unknown[] | undefined {
    return this.catalog[method]
  }

  /** Runs every discovery step again (the user's "refresh"). */
  async rediscover(): Promise<void> {
    await this.discover('refresh')
  }

  private async discover(trigger: DiscoveryTrigger, only?: DiscoveryMethod): Promise<void> {
    const session = this.session
    if (!session) return
    const generation = this.generation
    for (const step of DISCOVERY_STEPS) {
      if (only && step.method !== only) continue
      const result = await runDiscoveryStep(session, step, this.serverCapabilities, trigger, this.requestOptions())
      if (generation !== this.generation) return
      if (result.items) this.catalog[step.method] = result.items
      this.emit({ type: 'discovery', ...result })
    }
  }

  private turn = 0

  /** MCP tasks (2025-11-25): tool calls made as tasks, and the server's tasks listed, got, cancelled. */
  private readonly mcpTasks = new McpTasks({
    session: () => (this.isLive ? this.session : undefined),
    capabilities: () => this.serverCapabilities,
    requestOptions: () => this.requestOptions(),
    say: (message) => this.emit({ type: 'conversation', message }),
    nextTurn: () => ++this.turn,
    deadlineMs: () => this.options.taskDeadlineMs,
  })

  override tasks(): TaskOperations {
    if (!this.serverCapabilities.tasks) throw this.unsupported('tasks (the server advertises no capabilities.tasks)')
    return this.mcpTasks
  }

  /** A turn is a tool call (MCP has no free text and no context to start over: the session is the conversation). */
  async sendTurn(turn: Turn, options: TurnOptions = {}): Promise<TurnResult> {
    if (!('tool' in turn)) throw new CommandError('an MCP turn is a tool call: {"tool": NAME, "arguments": {…}}', 'invalid-input')
    const { turn: number, result } = await this.callTool(turn.tool, turn.arguments, options.progress)
    return {
      turn: number,
      request: { tool: turn.tool, arguments: turn.arguments },
      response: result,
      state: toolResultState(result),
    }
  }

  /** A tool as discovery listed it (its input and output schemas); its data is the structured content, else the text read as JSON. */
  callEndpoint(tool: string, options: CallOptions = {}): CallEndpoint {
    const listed = (this.catalog['tools/list'] ?? []) as { name: string; inputSchema?: unknown; outputSchema?: unknown }[]
    const definition = listed.find((t) => t.name === tool)
    return {
      inputSchema: definition?.inputSchema,
      outputSchema: definition?.outputSchema,
      send: async (args) => {
        const asTask = options.task ? await this.mcpTasks.callAsTask(tool, args) : undefined
        const { result } = asTask ?? (await this.callTool(tool, args))
        const text = result.content?.find((c) => c.type === 'text')?.text
        let data: unknown = result.structuredContent
        if (data === undefined && text) {
          try {
            data = JSON.parse(text)
          } catch {
            data = undefined
          }
        }
        const task = asTask && { id: asTask.taskId, status: asTask.status }
        return { response: result, data, structured: result.structuredContent, ...(task && { task }) }
      },
    }
  }

  /** One `tools/call`, recorded as a conversation turn: the call from the user, the result from the agent. Throws when no result came. */
  async callTool(tool: string, args: Record<string, unknown>, progress = true): Promise<{ turn: number; result: CallToolResult }> {
    const { turn, answer, error } = await this.toolExchange(tool, args, progress)
    if (answer.outcome !== 'result') throw error
    return { turn, result: answer.result as CallToolResult }
  }

  /**
   * One `tools/call` as a turn, and what it came to: the result, the server's error, or no answer (a
   * timeout, the user's cancel, a lost connection); `error` is what the SDK threw, for callers that throw it.
   */
  private async toolExchange(
    tool: string,
    args: Record<string, unknown>,
    progress = true,
  ): Promise<{ turn: number; answer: RequestAnswer; error?: unknown }> {
    const session = this.session
    if (!session || !this.isLive) throw new Error(`not connected (${this.state})`)
    const turn = ++this.turn
    const askedAt = now()
    const controller = new AbortController()
    // The call is on its way (over stdio, already written) before the turn is recorded: the server starts
    // at once and the recording overlaps its work. (Its frame is recorded first, then this message.)
    this.lastRequestId = undefined
    const answer = session.request(
      'tools/call',
      { name: tool, arguments: args },
      { ...this.requestOptions(progress), signal: controller.signal },
      CallToolResultSchema,
    )
    const ids = this.track(controller, progress)
    this.emit({ type: 'conversation', message: mcpCallMessage(tool, args, askedAt, turn, this.sent(ids)) })
    try {
      const result = (await answer) as CallToolResult
      // What a UI is shown of a large result names the frame that holds it whole.
      const frameSeq = this.cutInFrame(ids.requestId)
      const message = mcpResultMessage(result, now(), turn, ids)
      noteWholeInFrame(result, frameSeq)
      noteWholeInFrame(message, frameSeq)
      this.emit({ type: 'conversation', message })
      return { turn, answer: { method: 'tools/call', ...ids, durationMs: now() - askedAt, outcome: 'result', result } }
    } catch (error) {
      // A stack overflow while reading the answer (JSON nested thousands deep) comes from whichever realm parsed it, so test the name.
      const tooDeep = (error as Error)?.name === 'RangeError'
      const failure = this.failureOf('tools/call', error, controller, ids, askedAt)
      const noAnswer = failure.outcome === 'error' || failure.outcome === 'result' ? undefined : failure.outcome
      const message = tooDeep
        ? `the answer could not be read: ${errorMessage(error)} (nested too deeply?)`
        : noAnswer
          ? noAnswerText(failure)
          : errorMessage(error)
      const code = failure.outcome === 'error' ? failure.error.code : undefined
      this.emit({ type: 'conversation', message: mcpErrorMessage(message, now(), turn, code, { ...ids, noAnswer }) })
      return { turn, answer: failure, error: tooDeep || noAnswer ? new Error(message) : error }
    } finally {
      this.untrack(ids.requestId)
    }
  }

  /**
   * Any request by method, for the user (docs/architecture.md, "One command API"): checked against the
   * MCP SDK's schema for it before anything is sent, then answered as the server answers. It asks for
   * progress as `asksProgress` says (a token the server may report against, each report restarting the
   * timeout) and can be cancelled; a `tools/call` is a turn, as `sendTurn` makes it.
   */
  override async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: ExchangeOptions = {},
  ): Promise<RequestAnswer> {
    checkRequest(method, params)
    const session = this.session
    if (!session || !this.isLive) throw new CommandError(`not connected (${this.state})`, 'failed')
    const progress = asksProgress(method, options.progress)
    if (method === 'tools/call') {
      const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> }
      return (await this.toolExchange(name, args ?? {}, progress)).answer
    }
    const conversation = options.conversation ?? true
    const askedAt = now()
    const controller = new AbortController()
    this.lastRequestId = undefined
    const answer = session.request(method, params, { ...this.requestOptions(progress), signal: controller.signal })
    const ids = this.track(controller, progress)
    if (conversation) this.emit({ type: 'conversation', message: mcpRequestMessage(method, params, askedAt, this.sent(ids)) })
    try {
      const result = (await answer) as Record<string, unknown>
      // What a UI is shown of a large result names the frame that holds it whole.
      const frameSeq = this.cutInFrame(ids.requestId)
      noteWholeInFrame(result, frameSeq)
      this.answered(method, params)
      const problems = resultProblems(method, result)
      if (conversation) {
        const message = mcpAnswerMessage(method, result, now(), ids.requestId)
        noteWholeInFrame(message, frameSeq)
        this.emit({ type: 'conversation', message })
      }
      return { method, ...ids, durationMs: now() - askedAt, outcome: 'result', result, ...(problems.length > 0 && { problems }) }
    } catch (error) {
      const failure = this.failureOf(method, error, controller, ids, askedAt)
      if (conversation) {
        const text = failure.outcome === 'error' ? failure.error.message : noAnswerText(failure)
        const details =
          failure.outcome === 'error'
            ? { code: failure.error.code, ...(failure.error.data !== undefined && { data: failure.error.data }) }
            : { noAnswer: failure.outcome }
        this.emit({ type: 'conversation', message: mcpRequestErrorMessage(method, text, now(), ids.requestId, details) })
      }
      return failure
    } finally {
      this.untrack(ids.requestId)
    }
  }

  /** Stops waiting for a request of the user's and tells the server (`notifications/cancelled`, sent by the SDK). */
  override cancelRequest(requestId: string | number, reason = 'cancelled by the user'): boolean {
    const controller = this.cancellable.get(requestId) ?? this.cancellable.get(Number(requestId))
    if (!controller || controller.signal.aborted) return false
    controller.abort(reason)
    return true
  }

  /** The request just handed to the transport: cancellable by its id, its answer's frame noted. The SDK's progress token is its id. */
  private track(controller: AbortController, progress: boolean): { requestId?: string | number; progressToken?: string | number } {
    const requestId = this.lastRequestId
    if (requestId === undefined) return {}
    this.cancellable.set(requestId, controller)
    this.answeredBy.set(requestId, undefined)
    return progress ? { requestId, progressToken: requestId } : { requestId }
  }

  /** A request just tracked, as its message says it went out: its ids and the timeout `requestOptions` gave it. */
  private sent(ids: RequestIds): SentRequest {
    return ids.requestId === undefined ? ids : { ...ids, timeoutMs: this.options.requestTimeoutMs }
  }

  /** The frame that holds a request's answer whole, when what Parallax shows of it is cut. */
  private cutInFrame(requestId: string | number | undefined): number | undefined {
    const answer = requestId === undefined ? undefined : this.answeredBy.get(requestId)
    return answer?.cut ? answer.seq : undefined
  }

  private untrack(requestId: string | number | undefined): void {
    if (requestId === undefined) return
    this.cancellable.delete(requestId)
    this.answeredBy.delete(requestId)
  }

  /** What a request the user made changed of the session: subscriptions (kept for reconnects), the log level agreed. */
  private answered(method: string, params: Record<string, unknown> | undefined): void {
    const value = (key: string) => (typeof params?.[key] === 'string' ? (params[key] as string) : undefined)
    if (method === 'resources/subscribe' && value('uri')) this.subscriptions.add(value('uri')!)
    else if (method === 'resources/unsubscribe' && value('uri')) this.subscriptions.delete(value('uri')!)
    else if (method === 'logging/setLevel' && (LOG_LEVELS as readonly string[]).includes(value('level') ?? '')) {
      this.logLevel = this.agreedLogLevel = value('level') as LogLevel
    }
  }

  /**
   * Why a request has no result: the server's JSON-RPC error (it answered), or no answer at all — the user
   * cancelled it, it timed out, or the connection was lost before the answer came.
   */
  private failureOf(
    method: string,
    error: unknown,
    controller: AbortController,
    ids: { requestId?: string | number; progressToken?: string | number },
    askedAt: number,
  ): RequestAnswer {
    const base = { method, ...ids, durationMs: now() - askedAt }
    const answered = ids.requestId !== undefined && this.answeredBy.get(ids.requestId) !== undefined
    if (controller.signal.aborted && !answered)
      return { ...base, outcome: 'cancelled', reason: `${String(controller.signal.reason)} (notifications/cancelled sent)` }
    if (error instanceof McpError && answered)
      return {
        ...base,
        outcome: 'error',
        error: {
          code: error.code,
          message: jsonRpcErrorWords(error.message, error.code),
          ...(error.data !== undefined && { data: error.data }),
        },
      }
    if (answered)
      // The server answered, but not with anything the SDK could read as this method's result.
      return {
        ...base,
        outcome: 'error',
        error: { code: ErrorCode.InternalError, message: `the answer could not be read: ${errorMessage(error)}` },
      }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return {
        ...base,
        outcome: 'timeout',
        reason: `${ids.progressToken === undefined ? 'no answer' : 'no answer or progress'} within ${this.options.requestTimeoutMs} ms${ids.progressToken === undefined ? '' : ' (each progress notification restarted the timeout)'}; notifications/cancelled sent`,
      }
    return { ...base, outcome: 'lost', reason: errorMessage(error) }
  }

  /** A request from the server: its frame noted for the answer; one for a capability the profile did not offer is an oddity (the SDK answers -32601). */
  private onServerRequest(id: string | number, method: string | undefined, seq: number | undefined): void {
    const offered = (this.initializeRequest?.capabilities ?? {}) as Record<string, unknown>
    const missing = method ? ClientRole.unoffered(method, offered) : undefined
    if (missing)
      this.flagOddity(
        `unoffered:${missing}`,
        `the server sent ${method}, but Parallax did not offer the "${missing}" capability${this.settings.profile ? ` (profile "${this.settings.profile.name}")` : ''}; it was answered -32601`,
      )
    else if (this.serverRequestFrames.size < 10_000) this.serverRequestFrames.set(id, seq)
  }

  /** A person's answer to the server's request (sampling, elicitation) that waits for one. */
  override answerServerRequest(id: string | number, answer: ServerRequestAnswer): void {
    this.role.answer(id, answer)
  }

  /** New roots for this session: answered from now on, and announced to the server when the profile offers roots.listChanged. */
  override async setRoots(roots: Root[]): Promise<void> {
    const capabilities = this.settings.profile?.mcp.capabilities ?? {}
    const outcome = await this.role.setRoots(roots, capabilities, this.isLive)
    const list = roots.length ? roots.map((r) => r.uri).join(', ') : 'none'
    if (outcome === 'sent') this.logLine('info', `roots are now ${list}; told the server (notifications/roots/list_changed)`)
    else if (outcome === 'not-offered')
      this.logLine('info', `roots are now ${list}; the server was not told (this profile does not offer roots.listChanged)`)
  }

  /** The era's keepalive rule (docs/architecture.md): tools/list for a tool server; else ping in the 2025 era and server/discover in the 2026 era, which has no ping. */
  protected async probeOnce(): Promise<ProbeOutcome> {
    const session = this.session
    if (!session) throw new ProbeError(this.probeMethod, 'not connected')
    const probe = this.probeMethod
    // A probe is a plain request: no progress token, just the timeout.
    const options = { timeout: this.options.requestTimeoutMs }
    this.tap.expectProbe(probe) // its frames are marked, so the Frames view can set probes apart
    try {
      await session.request(
        probe,
        probe === 'tools/list' ? {} : undefined,
        options,
        probe === 'tools/list' ? ListToolsResultSchema : EmptyResultSchema,
      )
      return { probe }
    } catch (error) {
      if (probe === 'tools/list' && error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
        // The server is alive (it answered); it just lied about `tools`. Never tear it down for that.
        this.probeMethod = session.era === '2026' ? 'server/discover' : 'ping'
        this.probeChange = `the server advertises tools but answered tools/list -32601, so ${this.probeMethod} (${session.era === '2026' ? 'the 2026 era has no ping' : '2025 era'})`
        return { probe, note: `server advertises tools but answered -32601; probing with ${this.probeMethod} from now on` }
      }
      throw new ProbeError(probe, errorMessage(error))
    }
  }

  protected override probeRule(): string | undefined {
    return keepaliveRule(this.session?.era ?? '2025', this.probeMethod, this.probeChange)
  }

  protected async teardown(): Promise<void> {
    await this.closeClient()
  }

  private async closeClient(): Promise<void> {
    const session = this.session
    const changes = this.changes
    this.session = this.changes = undefined
    this.stdio = undefined
    this.role.close('the connection closed')
    this.serverRequestFrames.clear()
    await changes?.close()
    if (session) await session.close()
    const transports = [...this.transports]
    this.transports.clear()
    await Promise.all(transports.map((transport) => transport.close().catch(() => {})))
  }
}

/** Why no answer came, said as such: "no answer: cancelled by the user …", "no answer within 30000 ms …". */
function noAnswerText(answer: RequestAnswer): string {
  if (answer.outcome === 'result' || answer.outcome === 'error') return ''
  return answer.outcome === 'timeout' ? answer.reason : `no answer: ${answer.reason}`
}

/** How the SDK begins its error for progress it has no handler for (its request was answered, or it never asked). */
const SDK_UNKNOWN_PROGRESS = 'Received a progress notification for an unknown token'

/**
 * The SDK reports a message that is JSON but not JSON-RPC with its schema's issue list; say it in one
 * line instead. A line that is not JSON at all already reads well ("… is not valid JSON").
 */
function describeTransportError(error: Error): string {
  if (error.name === 'ZodError' || error.message.trimStart().startsWith('['))
    return 'the server sent a message that is not valid JSON-RPC (it is JSON, but has neither a method nor a result/error for an id)'
  return errorMessage(error)
}

/** An HTTP failure where `auto` did not try legacy SSE, with why. */
function sseNotTried(failure: ConnectFailure): ConnectFailure {
  const why = noFallback(failure.failure.status)
  return new ConnectFailure(`${failure.message} (legacy SSE not tried: ${why})`, { ...failure.failure, fallback: { tried: false, why } })
}

/** The profile's protocol version goes into `initialize` (the SDK always asks for its newest). */
function askForVersion(message: JSONRPCMessage, version: string): JSONRPCMessage {
  const request = message as { method?: string; params?: Record<string, unknown> }
  return request.method === 'initialize'
    ? ({ ...message, params: { ...request.params, protocolVersion: version } } as JSONRPCMessage)
    : message
}

function streamableTransport(spec: Extract<TargetSpec, { kind: 'mcp-http' }>, fetch: typeof globalThis.fetch): Transport {
  return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch })
}

function sseTransport(spec: Extract<TargetSpec, { kind: 'mcp-http' }>, fetch: typeof globalThis.fetch): Transport {
  // requestInit headers apply to the event stream too
  return new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch })
}

/** How many of a stdio server's last stderr lines a failure names. */
const STDERR_TAIL = 5

function exitPhrase(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
}

/** Why `auto` did not try legacy SSE after streamable HTTP failed. */
function noFallback(status: number | undefined): string {
  if (status === undefined) return 'no HTTP answer came, and legacy SSE at the same address would meet the same'
  if (status === 401 || status === 403) return `HTTP ${status} is about credentials, and legacy SSE would be refused the same way`
  return `only a 404 or 405 to the first POST suggests a legacy server (MCP spec, backwards compatibility), and HTTP ${status} is this server's answer to the request (set the target's transport to "sse" to force legacy SSE)`
}

/** What an HTTP transport met: the server's answer (status, its words, its challenge), else the network's (refused host:port), else the error. */
async function httpFailure(kind: 'streamable-http' | 'sse', url: string, error: unknown, answers: AnswerWatch): Promise<ConnectFailure> {
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : era2026?.sdkHttpStatus(error)
  const answer = status !== undefined && status > 0 ? await answers.lastFailure() : undefined
  const seen = answer?.status === status ? answer : undefined
  const request = { method: seen?.request.method ?? (kind === 'sse' ? 'GET' : 'POST'), url: redactText(seen?.request.url ?? url) }
  const cause: FailureCause = { transport: kind, request, error: errorMessage(error) }
  const label = kind === 'sse' ? 'legacy SSE' : 'streamable HTTP'
  if (status !== undefined && status > 0) {
    Object.assign(cause, {
      status,
      ...(seen?.statusText && { statusText: seen.statusText }),
      ...(seen?.challenge && { challenge: seen.challenge }),
      ...(seen?.message && { message: seen.message }),
      ...(seen?.body && { body: seen.body }),
    })
    const words = seen?.message ? `: ${seen.message}` : ''
    const challenge = seen?.challenge ? ` (WWW-Authenticate: ${seen.challenge})` : ''
    return new ConnectFailure(
      `${label} ${request.method} ${request.url} answered HTTP ${status}${seen?.statusText ? ` ${seen.statusText}` : ''}${words}${challenge}`,
      cause,
    )
  }
  const network = networkFailure(error, url)
  if (network) {
    Object.assign(cause, networkCause(network))
    return new ConnectFailure(`${label}: ${networkPhrase(network)} for ${request.method} ${request.url}`, cause)
  }
  return new ConnectFailure(`${label} ${request.url}: ${cause.error}`, cause)
}
