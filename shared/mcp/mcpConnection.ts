import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import {
  CommandError,
  redactText,
  toolResultState,
  type ClientProfile,
  type ConnectionOptions,
  type DiscoveryMethod,
  type LogLevel,
  type RequestAnswer,
  type Root,
  type SavedTarget,
  type ServerRequestAnswer,
  type TransportKind,
  type Turn,
  type TurnResult,
} from '../contract'
import type { ConnectionAuth } from '../auth/connectionAuth'
import type { EventLog } from '../runtime/eventLog'
import { JsonRpcTap, type TappedFrame } from '../runtime/jsonRpcTap'
import { wireText } from '../runtime/lines'
import {
  SupervisedConnection,
  type CallEndpoint,
  type CallOptions,
  type ExchangeOptions,
  type ProbeOutcome,
  type TaskOperations,
  type TurnOptions,
} from '../runtime/supervisedConnection'
import { ClientRole, type ClientRoleSettings } from './clientRole'
import { Discovery } from './discovery'
import { EraSession } from './eraSession'
import { KeepaliveProbe } from './keepaliveProbe'
import { McpTasks } from './mcpTasks'
import { McpTransports } from './mcpTransports'
import { toolCallHeaders } from './paramHeaders'
import { ServerFrames } from './serverFrames'
import { requestOptions } from './session'
import { SessionChoices } from './sessionChoices'
import { UserRequests } from './userRequests'

export interface McpConnectionSettings {
  profile?: ClientProfile
  /** How the connection answers what the server asks: roots, a scripted responder, whether a person can be asked. */
  client?: ClientRoleSettings
  /** Authorization over HTTP: the target's token on each request, and a sign-in where a challenge asks for one (shared/auth). */
  auth?: ConnectionAuth
}

/**
 * One MCP server: transport (stdio, streamable HTTP, or SSE as fallback), frame tap, the protocol era
 * (2026-07-28 negotiated through server/discover, else the 2025 initialize), capability-gated discovery,
 * list_changed handling and keepalive probing, each by the era's rules. Each job is a part of its own,
 * composed here through the small host interface each part declares:
 *
 * - `McpTransports` (./mcpTransports.ts): the stdio process and HTTP transports, legacy SSE as fallback,
 *   and why a transport failed;
 * - `EraSession` (./eraSession.ts): the 2026 offer, the 2025 initialize, the handshake;
 * - `UserRequests` (./userRequests.ts): tool calls and requests by method, tracked, cancelled, judged;
 * - `ServerFrames` (./serverFrames.ts): what the server says — log, progress, updates, list changes, its requests;
 * - `Discovery`, `SessionChoices`, `KeepaliveProbe`, `McpTasks`, and `ClientRole` (what the server asks).
 */
export class McpConnection extends SupervisedConnection {
  private readonly tap: JsonRpcTap
  private readonly transports: McpTransports
  private readonly era: EraSession
  private readonly keepalive: KeepaliveProbe
  private readonly discovery: Discovery
  private readonly choices: SessionChoices
  private readonly requests: UserRequests
  private readonly frames: ServerFrames
  /** The client's side: answers the server's sampling, elicitation and roots requests. */
  private readonly role: ClientRole
  /** MCP tasks (2025-11-25): tool calls made as tasks, and the server's tasks listed, got, cancelled. */
  private readonly mcpTasks: McpTasks

  constructor(
    id: string,
    target: SavedTarget,
    log: EventLog,
    options: ConnectionOptions,
    private readonly settings: McpConnectionSettings = {},
  ) {
    super(id, target, log, options, 'mcp')
    const profile = settings.profile
    const generation = () => this.generation
    const timeoutMs = () => this.options.requestTimeoutMs
    const liveSession = () => (this.isLive ? this.era.current : undefined)
    const state = () => this.state
    const logLine = this.logLine.bind(this)
    this.tap = new JsonRpcTap('mcp', 'stdio', (frame) => this.emit(frame), this.spill)
    this.transports = new McpTransports(target.spec, {
      options,
      auth: settings.auth,
      generation,
      logLine,
      carries: (kind) => this.carries(kind),
      frame: (...seen) => this.onFrame(...seen),
      rewrite: (message) => this.era.rewrite(message),
      paramHeaders: (message) =>
        this.era.current?.era === '2026' ? toolCallHeaders(message, this.discovery.catalog['tools/list']) : undefined,
      closeSession: () => this.closeSession(),
    })
    this.keepalive = new KeepaliveProbe({
      session: () => this.era.current,
      timeoutMs,
      expectProbe: (method) => this.tap.expectProbe(method),
    })
    this.choices = new SessionChoices({ liveSession, state, capabilities: () => this.era.capabilities, timeoutMs, logLine })
    this.requests = new UserRequests({
      liveSession,
      state,
      timeoutMs,
      say: (message) => this.emit({ type: 'conversation', message }),
      answered: (method, params) => this.choices.answered(method, params),
    })
    this.mcpTasks = new McpTasks({
      session: liveSession,
      capabilities: () => this.era.capabilities,
      requestOptions: () => requestOptions(this.options.requestTimeoutMs),
      say: (message) => this.emit({ type: 'conversation', message }),
      nextTurn: () => this.requests.nextTurn(),
      deadlineMs: () => this.options.taskDeadlineMs,
    })
    this.discovery = new Discovery({
      session: () => this.era.current,
      capabilities: () => this.era.capabilities,
      clientCapabilities: () => this.era.clientCapabilities,
      generation,
      isLive: () => this.isLive,
      timeoutMs,
      emit: (event) => this.emit(event),
    })
    this.role = new ClientRole(
      settings.client ?? {},
      (event) => this.emit(event),
      (id) => this.frames.frameOfRequest(id),
      (level, text) => this.logLine(level, text),
      (params) => this.mcpTasks.turnOfRequest(params),
    )
    this.era = new EraSession({
      options,
      profile,
      role: this.role,
      generation,
      emit: (event) => this.emit(event),
      logLine,
      sessionClosed: (generation, kind) => {
        const { reason, cause } = this.transports.closedReason(kind)
        this.onTransportClosed(generation, reason, cause)
      },
      processEnd: () => this.transports.processEnd,
      keepaliveFor: (era, capabilities) => this.keepalive.choose(era, capabilities),
      logLevel: () => this.choices.logLevel,
    })
    this.frames = new ServerFrames({
      profile,
      session: this.era,
      choices: this.choices,
      emit: (event) => this.emit(event),
      logLine,
      refresh: (method, trigger) => void this.discovery.refresh(method, trigger),
    })
  }

  protected override get pid(): number | undefined {
    return this.transports.pid
  }

  /** The transport, the era and its handshake; then what the user chose before a reconnect, asked again, and discovery. */
  protected async establish(): Promise<void> {
    this.tap.reset()
    this.era.begin()
    await this.transports.connect(this.era)
    const session = this.era.current
    if (!session) return // closed while it connected
    await this.choices.restore(session, session.era)
    await this.discovery.run('initial')
  }

  protected async probeOnce(): Promise<ProbeOutcome> {
    return this.keepalive.once()
  }

  protected override probeRule(): string | undefined {
    return this.keepalive.rule()
  }

  protected async teardown(): Promise<void> {
    await this.closeSession()
  }

  /** The latest catalog, per list method (for hosts such as the CLI that print it). */
  get catalog(): Partial<Record<DiscoveryMethod, unknown[]>> {
    return this.discovery.catalog
  }

  override catalogEntries(method: DiscoveryMethod): unknown[] | undefined {
    return this.discovery.catalog[method]
  }

  /** Runs every discovery step again (the user's "refresh"). */
  async rediscover(): Promise<void> {
    await this.discovery.run('refresh')
  }

  /** Waits out notifications still in flight and the refreshes they start. */
  override settled(): Promise<void> {
    return this.discovery.settled()
  }

  override tasks(): TaskOperations {
    if (!this.era.capabilities.tasks) throw this.unsupported('tasks (the server advertises no capabilities.tasks)')
    return this.mcpTasks
  }

  /** A turn is a tool call (MCP has no free text and no context to start over: the session is the conversation). */
  async sendTurn(turn: Turn, options: TurnOptions = {}): Promise<TurnResult> {
    if (!('tool' in turn)) throw new CommandError('an MCP turn is a tool call: {"tool": NAME, "arguments": {…}}', 'invalid-input')
    const { turn: number, result } = await this.requests.callTool(turn.tool, turn.arguments, options.progress)
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
        const { result, turn } = asTask ?? (await this.requests.callTool(tool, args))
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
        return { response: result, data, structured: result.structuredContent, turn, ...(task && { task }) }
      },
    }
  }

  /** One `tools/call`, recorded as a conversation turn: the call from the user, the result from the agent. Throws when no result came. */
  callTool(tool: string, args: Record<string, unknown>, progress = true): Promise<{ turn: number; result: CallToolResult }> {
    return this.requests.callTool(tool, args, progress)
  }

  /** Any request by method, for the user: checked, tracked, cancellable (./userRequests.ts). */
  override request(method: string, params: Record<string, unknown> | undefined, options: ExchangeOptions = {}): Promise<RequestAnswer> {
    return this.requests.request(method, params, options)
  }

  /** Stops waiting for a request of the user's and tells the server (`notifications/cancelled`, sent by the SDK). */
  override cancelRequest(requestId: string | number, reason = 'cancelled by the user'): boolean {
    return this.requests.cancel(requestId, reason)
  }

  /** Asks the server for its log messages at `level` and above (`logging/setLevel`); kept for reconnects. */
  override setLogLevel(level: LogLevel): Promise<void> {
    return this.choices.setLogLevel(level)
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

  /** A transport of this kind is about to carry a session: its frames are tapped as such, and what is kept per session starts over. */
  private carries(kind: TransportKind): void {
    this.transport = this.tap.transport = kind
    this.frames.newSession()
    this.choices.newSession()
  }

  /** Each message either way, recorded as a frame, then read by each part that follows it. */
  private onFrame(
    generation: number,
    direction: 'out' | 'in',
    message: JSONRPCMessage,
    ts: number,
    refused?: string,
    headers?: Record<string, string>,
  ): number | undefined {
    if (generation !== this.generation) return undefined
    const spec = this.target.spec
    const http =
      headers && spec.kind === 'mcp-http' ? { method: 'POST', url: redactText(spec.url), headers, mirrored: true as const } : undefined
    const frame: TappedFrame & { seq?: number } = this.tap.record(direction, message, ts, refused, wireText.get(message), http)
    wireText.delete(message) // recorded: the text it travelled as may go
    this.requests.read(direction, frame)
    if (!refused) this.era.read(direction, frame, message)
    this.frames.read(direction, frame, message, refused)
    return frame.seq
  }

  private async closeSession(): Promise<void> {
    const closeEra = this.era.detach()
    this.role.close('the connection closed')
    this.frames.forgetRequests()
    await closeEra()
    await this.transports.closeAll()
  }
}
