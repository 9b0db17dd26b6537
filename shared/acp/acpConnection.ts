import { client, type AnyMessage, type ClientConnection, type ContentBlock, type McpServer } from '@agentclientprotocol/sdk'
import {
  CommandError,
  describeSpec,
  promptTextOf,
  redactArgs,
  slashCall,
  type AcpHandshake,
  type AcpPromptAnswer,
  type AcpSessionInfo,
  type ClientProfile,
  type ConnectionOptions,
  type RequestAnswer,
  type FailureCause,
  type SavedTarget,
  type ServerRequestAnswer,
  type TargetSpec,
  type Turn,
  type TurnResult,
} from '../contract'
import type { EventLog } from '../runtime/eventLog'
import { now } from '../runtime/clock'
import { ConnectFailure, errorMessage } from '../runtime/errors'
import { JsonRpcTap } from '../runtime/jsonRpcTap'
import { ProbeError, SupervisedConnection, type CallEndpoint, type ProbeOutcome } from '../runtime/supervisedConnection'
import { PARALLAX_VERSION } from '../version'
import { AcpClientRole, type AcpPolicy } from './clientRole'
import { acpOffer, acpProtocolVersion, agentSide, type AcpOffer } from './handshake'
import { acpSubject, unofferedRequest } from './frames'
import { SessionProjection } from './sessionProjection'
import { StdioPeer } from './stdioPeer'
import { Workspace } from './workspace'

type AcpSpec = Extract<TargetSpec, { kind: 'acp' }>

export const ACP_CLIENT_INFO = { name: 'parallax', version: PARALLAX_VERSION }

/** ACP's JSON-RPC error code for "authentication required". */
const AUTH_REQUIRED = -32000

/** How many of an agent's last stderr lines a failure names. */
const STDERR_TAIL = 5

const NO_PING =
  'ACP has no ping: keepalive watches the agent process and its streams (a process that exited, or closed its output, is down)'

export interface AcpConnectionSettings {
  profile?: ClientProfile
  /** Whether a person can answer the agent's permission requests and approve its commands (a UI host), and the policy that answers first. */
  client: { askUser: boolean; policy?: AcpPolicy }
  /** The MCP servers the user chose for this agent, as `session/new` hands them over (the engine resolves saved targets). */
  mcpServers?: McpServer[]
}

/** An ACP prompt turn: what was asked, and what it came to. */
export interface AcpTurnResult extends TurnResult {
  request: { prompt: string; sessionId: string }
  response: AcpPromptAnswer
}

/**
 * One ACP agent over stdio: the process (consent is the engine's), every JSON-RPC message a frame, the
 * handshake (`initialize`: version asked and negotiated, what Parallax offered under its profile — `fs`,
 * `terminal`, the tool-categories hint — and what the agent answered), a session (`session/new` with the MCP
 * servers the user chose, or `session/load` after a restart where the agent offers it), prompt turns with
 * their `session/update` stream folded into the conversation, cancel (`session/cancel`), the client's side
 * (permissions, files, terminals), and keepalive by watching the process: ACP has no ping.
 */
export class AcpConnection extends SupervisedConnection {
  private peer: StdioPeer | undefined
  private connection: ClientConnection | undefined
  private readonly tap: JsonRpcTap
  private readonly projection = new SessionProjection((message) => this.emit({ type: 'conversation', message }))
  private role: AcpClientRole | undefined
  private readonly workspace: Workspace | undefined
  private offer: AcpOffer | undefined
  private initializeResult: Record<string, unknown> | undefined
  private handshake: Omit<AcpHandshake, 'session'> | undefined
  /** The session prompts go to; kept across a restart so it can be loaded again where the agent offers that. */
  private sessionId: string | undefined
  private session: AcpSessionInfo | undefined
  /** The frame of each request the agent sent, by id, until its handler picks it up. */
  private readonly requestFrames = new Map<string, number | undefined>()
  private stderrTail: string[] = []
  private exited: { code: number | null; signal: string | null } | undefined
  /** The prompt in flight: its JSON-RPC id (what `connections.cancel` names) and when the agent last showed life. */
  private prompting: { requestId?: string | number; sessionId: string; lastSign: number } | undefined
  private turn = 0
  private readonly flagged = new Set<string>()
  /** Commands the agent announced for its session (`available_commands_update`), the catalog a compare diffs. */
  private commandsSeen = false

  constructor(
    id: string,
    target: SavedTarget,
    log: EventLog,
    options: ConnectionOptions,
    private readonly settings: AcpConnectionSettings,
  ) {
    super(id, target, log, options, 'acp')
    this.transport = 'stdio'
    this.tap = new JsonRpcTap('acp', 'stdio', (frame) => this.emit(frame), this.spill, acpSubject)
    const spec = target.spec as AcpSpec
    this.workspace = spec.workspace ? new Workspace(spec.workspace) : undefined
  }

  private get spec(): AcpSpec {
    return this.target.spec as AcpSpec
  }

  protected override get pid(): number | undefined {
    return this.peer?.pid
  }

  protected async establish(): Promise<void> {
    const generation = this.generation
    const spec = this.spec
    this.tap.reset()
    this.flagged.clear()
    this.initializeResult = undefined
    this.stderrTail = []
    this.exited = undefined
    this.commandsSeen = false
    const profile = this.settings.profile?.acp
    this.offer = acpOffer(profile, !!this.workspace)
    const role = new AcpClientRole(
      {
        askUser: this.settings.client.askUser,
        policy: this.settings.client.policy,
        workspace: this.workspace,
        offered: this.offer.offered,
        turn: () => (this.prompting ? this.turn : undefined),
      },
      (event) => this.emit(event),
      (id) => {
        const seq = this.requestFrames.get(String(id))
        this.requestFrames.delete(String(id))
        return seq
      },
      (level, text) => this.logLine(level, text),
      (kind, text) => this.flagOddity(kind, text),
    )
    this.role = role
    const app = client({ name: 'parallax' })
    role.install(app)
    const started = now()
    try {
      this.peer = new StdioPeer(
        { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd },
        {
          frame: (direction, message, ts, wire) => this.onFrame(generation, direction, message, ts, wire),
          refused: (line, why, ts) => this.onRefused(generation, line, why, ts),
          stderr: (line) => {
            if (generation !== this.generation) return
            this.stderrTail = [...this.stderrTail.slice(-(STDERR_TAIL - 1)), line]
            this.logLine('info', line, 'stderr')
          },
          exit: (exit) => {
            if (generation === this.generation) this.exited = exit
          },
        },
        this.options.maxMessageBytes,
      )
      const spawned = new Promise<void>((resolve, reject) => {
        this.peer!.child.once('spawn', () => resolve())
        this.peer!.child.once('error', reject)
      })
      await spawned
      const connection = app.connect(this.peer.stream)
      this.connection = connection
      const peer = this.peer
      void connection.closed.then(async () => {
        // The output usually ends a moment before the exit is reported: wait briefly, to say how it ended.
        await Promise.race([peer.exited, new Promise((resolve) => setTimeout(resolve, 500))])
        const why = this.exited ? `agent process ${exitPhrase(this.exited)}` : 'the agent closed its output'
        this.onTransportClosed(generation, why, this.cause())
      })
      const version = acpProtocolVersion(profile)
      const clientInfo = profile?.clientInfo ?? ACP_CLIENT_INFO
      await this.within(
        connection.agent.request('initialize', {
          protocolVersion: version,
          clientCapabilities: this.offer.capabilities as never,
          clientInfo,
        }),
        this.options.connectTimeoutMs,
        'initialize',
      )
      this.handshake = {
        transport: 'stdio',
        requestedProtocolVersion: version,
        ...agentSide(this.initializeResult),
        clientInfo,
        clientCapabilities: this.offer.capabilities,
        ...(this.offer.hint && { hint: this.offer.hint }),
        ...(this.workspace && { workspace: this.workspace.root }),
        ...(this.offer.notOffered.length > 0 && { notOffered: this.offer.notOffered }),
        keepalive: NO_PING,
        durationMs: now() - started,
        ...(this.settings.profile && { profile: this.settings.profile.name }),
      }
      if (this.handshake.protocolVersion !== undefined && this.handshake.protocolVersion !== version)
        this.logLine('warn', `asked for ACP protocol version ${version}; the agent answered ${this.handshake.protocolVersion}`)
      try {
        await this.openSession(connection)
      } finally {
        this.emitHandshake()
      }
      // An agent announces its commands right after the session opens: connected means discovered, as over MCP.
      await this.commandsAnnounced(300)
    } catch (error) {
      throw await this.failure(error)
    }
  }

  /** `session/load` of the session this connection had (after a restart, where the agent offers it), else `session/new`. */
  private async openSession(connection: ClientConnection, fresh = false): Promise<void> {
    const cwd = this.workspace?.root ?? this.spec.cwd ?? process.cwd()
    const { servers, skipped } = this.mcpServersFor()
    const canLoad = (this.handshake?.agentCapabilities as { loadSession?: unknown } | undefined)?.loadSession === true
    const previous = fresh ? undefined : this.sessionId
    let how: AcpSessionInfo['how'] = 'new'
    let reason: string | undefined
    let modes: unknown
    if (previous && canLoad) {
      const loaded = (await this.within(
        connection.agent.request('session/load', { sessionId: previous, cwd, mcpServers: servers }),
        this.options.connectTimeoutMs,
        'session/load',
      )) as { modes?: unknown } | undefined
      this.projection.settle()
      how = 'load'
      reason = 'loaded again after the agent restarted (it offers loadSession): its history is replayed above'
      modes = loaded?.modes
    } else {
      if (previous) reason = 'a new session: the agent restarted and does not offer loadSession, so the earlier one is gone'
      const created = (await this.within(
        connection.agent.request('session/new', { cwd, mcpServers: servers }),
        this.options.connectTimeoutMs,
        'session/new',
      )) as { sessionId: string; modes?: unknown }
      this.sessionId = created.sessionId
      modes = created.modes
    }
    const modeState = modes as { currentModeId?: string; availableModes?: { id: string; name: string }[] } | undefined
    this.session = {
      sessionId: this.sessionId!,
      how,
      ...(reason && { reason }),
      cwd,
      mcpServers: servers.map((s) => ({ name: s.name, transport: 'type' in s ? String(s.type) : 'stdio' })),
      ...(skipped.length > 0 && { mcpServersSkipped: skipped }),
      ...(modeState?.availableModes && {
        modes: {
          currentModeId: modeState.currentModeId,
          available: modeState.availableModes.map((m) => ({ id: m.id, name: m.name })),
        },
      }),
    }
    if (reason) this.logLine(how === 'load' ? 'info' : 'warn', `session ${this.sessionId}: ${reason}`)
  }

  /** The MCP servers the user chose, less those this agent said it cannot take (HTTP or SSE without the capability). */
  private mcpServersFor(): { servers: McpServer[]; skipped: { name: string; why: string }[] } {
    const mcp = ((this.handshake?.agentCapabilities as { mcpCapabilities?: { http?: boolean; sse?: boolean } } | undefined)
      ?.mcpCapabilities ?? {}) as { http?: boolean; sse?: boolean }
    const servers: McpServer[] = []
    const skipped: { name: string; why: string }[] = []
    for (const server of this.settings.mcpServers ?? []) {
      const type = 'type' in server ? server.type : 'stdio'
      if ((type === 'http' && !mcp.http) || (type === 'sse' && !mcp.sse))
        skipped.push({ name: server.name, why: `the agent did not advertise mcpCapabilities.${type}` })
      else servers.push(server)
    }
    return { servers, skipped }
  }

  private emitHandshake(): void {
    if (!this.handshake) return
    this.emit({ type: 'handshake', protocol: 'acp', ...this.handshake, ...(this.session && { session: this.session }) })
  }

  /** Rejects with a timeout when the agent does not answer in time (a silent agent is not a slow request). */
  private within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the agent did not answer ${what} within ${ms} ms`)), ms)
    })
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
  }

  private cause(): FailureCause {
    const spec = this.spec
    return {
      transport: 'stdio',
      command: describeSpec({ ...spec, kind: 'mcp-stdio', args: redactArgs(spec.args) }),
      ...(this.exited && { exit: this.exited }),
      ...(this.stderrTail.length && { stderr: [...this.stderrTail] }),
    }
  }

  /** Why the agent could not be reached: the whole command line, how its process ended, its last words on stderr. */
  private async failure(error: unknown): Promise<ConnectFailure> {
    await new Promise((resolve) => setTimeout(resolve, 20)) // the exit and stderr's last lines, still in the pipe
    const cause = this.cause()
    const code = (error as { code?: unknown } | undefined)?.code
    if (typeof code === 'string') cause.code = code
    cause.error = errorMessage(error)
    const said = cause.stderr?.length ? `; stderr: ${cause.stderr.at(-1)}` : ''
    const methods = this.handshake?.authMethods.map((m) => m.name || m.id).join(', ')
    const message =
      code === AUTH_REQUIRED
        ? `the agent wants you to sign in first (${methods ? `its auth methods: ${methods}` : 'it named no auth method'}); Parallax does not call ACP's authenticate, so sign in with the agent's own tool and connect again (${cause.command})`
        : typeof code === 'string'
          ? `cannot run ${cause.command}: ${cause.error}`
          : this.exited
            ? `the agent process ${exitPhrase(this.exited)} before the handshake completed (${cause.command})${said}`
            : `${cause.error} (${cause.command})${said}`
    return new ConnectFailure(message, cause)
  }

  private onFrame(generation: number, direction: 'out' | 'in', message: AnyMessage, ts: number, wire?: string): void {
    if (generation !== this.generation) return
    const frame = this.tap.record(direction, message, ts, undefined, wire) as ReturnType<JsonRpcTap['record']> & { seq?: number }
    const msg = message as { method?: string; params?: unknown; result?: Record<string, unknown>; id?: string | number }
    if (direction === 'in' && frame.method === 'initialize' && frame.kind === 'response') this.initializeResult = msg.result
    // The session is known from its answer's frame: updates for it may follow before the SDK hands the answer on.
    if (direction === 'in' && frame.method === 'session/new' && frame.kind === 'response' && typeof msg.result?.sessionId === 'string')
      this.sessionId = msg.result.sessionId
    if (direction === 'out' && frame.method === 'session/prompt' && frame.kind === 'request' && this.prompting)
      this.prompting.requestId = frame.id
    if (direction !== 'in') return
    if (this.prompting) this.prompting.lastSign = now()
    if (frame.kind === 'request' && frame.id !== undefined) {
      const missing = unofferedRequest(frame.method ?? '', this.offer?.offered)
      if (missing)
        this.flagOddity(
          `unoffered:${missing}`,
          `the agent sent ${frame.method}, but Parallax did not offer ${missing}; it was answered -32601`,
        )
      else if (this.requestFrames.size < 10_000) this.requestFrames.set(String(frame.id), frame.seq)
    }
    if (frame.kind === 'notification' && frame.method === 'session/update') this.onUpdate(msg.params)
  }

  /** One session update, in wire order: into the conversation, and the commands the agent announces into discovery. */
  private onUpdate(params: unknown): void {
    const { sessionId, update } = (params ?? {}) as {
      sessionId?: unknown
      update?: { sessionUpdate?: unknown; availableCommands?: unknown }
    }
    if (sessionId !== this.sessionId) {
      this.flagOddity(
        'other-session',
        `the agent sent a session/update for session ${String(sessionId)}, which is not this connection's (${this.sessionId})`,
      )
      return
    }
    if (update?.sessionUpdate === 'available_commands_update' && Array.isArray(update.availableCommands)) {
      this.emit({
        type: 'discovery',
        method: 'available_commands',
        status: 'called',
        reason: 'the agent announced its slash commands for this session (available_commands_update)',
        trigger: this.commandsSeen ? 'list_changed' : 'initial',
        count: update.availableCommands.length,
        items: update.availableCommands,
      })
      this.commandsSeen = true
      return
    }
    this.projection.update(params)
  }

  private onRefused(generation: number, line: string, why: string, ts: number): void {
    if (generation !== this.generation) return
    this.tap.record('in', line, ts, why)
    this.logLine('warn', `the agent wrote a line Parallax did not hand on: ${why} (kept as a frame)`, 'transport')
  }

  private flagOddity(kind: string, text: string): void {
    if (this.flagged.has(kind)) return
    this.flagged.add(kind)
    this.emit({ type: 'log', source: 'engine', level: 'warn', text: `protocol oddity: ${text}`, oddity: true })
  }

  /** Waits (briefly) for the commands an agent announces right after its session opens: what a compare diffs. */
  override async settled(): Promise<void> {
    await this.commandsAnnounced(1_000)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  private async commandsAnnounced(limitMs: number): Promise<void> {
    for (let waited = 0; !this.commandsSeen && waited < limitMs && !this.closed; waited += 25) await new Promise((r) => setTimeout(r, 25))
  }

  /** ACP has no ping: the agent is alive while its process runs and its output is open. */
  protected async probeOnce(): Promise<ProbeOutcome> {
    const peer = this.peer
    if (!peer || !peer.alive)
      throw new ProbeError('process', this.exited ? `agent process ${exitPhrase(this.exited)}` : 'the agent process is gone')
    const waiting = this.prompting
      ? `; a prompt has been in flight for ${Math.round((now() - this.prompting.lastSign) / 1000)} s since the agent last wrote`
      : ''
    return { probe: 'process', note: `ACP has no ping: process ${peer.pid} is running and its output open${waiting}` }
  }

  protected async teardown(): Promise<void> {
    const connection = this.connection
    const peer = this.peer
    this.connection = undefined
    this.peer = undefined
    this.prompting = undefined
    this.requestFrames.clear()
    this.role?.close('the connection closed')
    connection?.close()
    await peer?.stop(this.options.exitGraceMs)
  }

  /** A turn is a prompt: text, or a call said as the slash command `/tool {json}` (how MCP tools and A2A skills map onto ACP). */
  async sendTurn(turn: Turn): Promise<AcpTurnResult> {
    if ('data' in turn)
      throw new CommandError(
        'an ACP turn is a prompt: {"text": …} (or a call {"tool", "arguments"}, sent as /tool {json})',
        'invalid-input',
      )
    const connection = this.connection
    if (!connection || !this.isLive) throw new CommandError(`not connected (${this.state})`, 'failed')
    if (!this.sessionId) {
      await this.openSession(connection, true)
      this.emitHandshake()
    }
    const text = promptTextOf(turn)
    const call = 'tool' in turn ? { tool: turn.tool, arguments: turn.arguments } : slashCall(text)
    return (await this.prompt(connection, [{ type: 'text', text }], text, call)).result
  }

  /**
   * ACP's own requests by method: `session/prompt` with its params as given (a prompt sent again from Frames),
   * to the session in use, as a prompt turn. The connection sends the rest itself (initialize, its sessions).
   */
  override async request(method: string, params: Record<string, unknown> | undefined): Promise<RequestAnswer> {
    if (method !== 'session/prompt')
      throw new CommandError(
        `Parallax sends ACP prompts by method (session/prompt); ${method} is the connection's own to send`,
        'invalid-input',
      )
    const connection = this.connection
    if (!connection || !this.isLive) throw new CommandError(`not connected (${this.state})`, 'failed')
    const { sessionId, prompt } = (params ?? {}) as { sessionId?: unknown; prompt?: unknown }
    if (typeof sessionId !== 'string' || sessionId !== this.sessionId)
      throw new CommandError(
        `the prompt names session ${JSON.stringify(sessionId)}, not the one in use (${this.sessionId ?? 'none yet'}): a prompt goes to the session in use`,
        'invalid-input',
      )
    const blocks = Array.isArray(prompt) ? (prompt as { type?: unknown; text?: unknown }[]) : []
    if (blocks.length === 0 || !blocks.every((b) => b && typeof b === 'object' && typeof b.type === 'string'))
      throw new CommandError('a prompt is a list of content blocks, each with its "type"', 'invalid-input')
    const text = blocks.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${String(b.type)}]`)).join('')
    const askedAt = now()
    const { result, requestId } = await this.prompt(connection, blocks as ContentBlock[], text, slashCall(text))
    const response = result.response
    const common = { method, ...(requestId !== undefined && { requestId }), durationMs: now() - askedAt }
    return response.error
      ? { ...common, outcome: 'error', error: { code: response.error.code ?? -32603, message: response.error.message } }
      : { ...common, outcome: 'result', result: { stopReason: response.stopReason } }
  }

  /** One prompt turn in the session in use: its updates folded into the conversation, its stop reason the outcome. */
  private async prompt(
    connection: ClientConnection,
    blocks: ContentBlock[],
    text: string,
    call: ReturnType<typeof slashCall>,
  ): Promise<{ result: AcpTurnResult; requestId?: string | number }> {
    const sessionId = this.sessionId!
    const number = ++this.turn
    this.projection.begin(number, text, call)
    const prompting: NonNullable<AcpConnection['prompting']> = { sessionId, lastSign: now() }
    this.prompting = prompting
    const request = connection.agent.request('session/prompt', { sessionId, prompt: blocks })
    let answer: AcpPromptAnswer
    try {
      const response = (await this.quietWithin(request, prompting)) as { stopReason?: string }
      answer = this.projection.end(sessionId, response.stopReason ?? 'unknown')
    } catch (error) {
      const code = (error as { code?: unknown }).code
      // ACP's "authentication required" is the one vocabulary's auth-required, not a failure of the agent.
      answer = this.projection.end(sessionId, code === AUTH_REQUIRED ? 'auth-required' : 'error', {
        ...(typeof code === 'number' && { code }),
        message: errorMessage(error),
      })
    } finally {
      if (this.prompting === prompting) this.prompting = undefined
    }
    return {
      result: { turn: number, request: { prompt: text, sessionId }, response: answer, state: answer.stopReason },
      ...(prompting.requestId !== undefined && { requestId: prompting.requestId }),
    }
  }

  /**
   * Waits for a prompt's answer while the agent shows life: each frame from it (an update, a request) restarts
   * the request timeout, and a person being asked holds it; silence past it cancels the turn (`session/cancel`).
   */
  private quietWithin<T>(promise: Promise<T>, prompting: NonNullable<AcpConnection['prompting']>): Promise<T> {
    const limit = this.options.requestTimeoutMs
    return new Promise<T>((resolve, reject) => {
      const timer = setInterval(
        () => {
          if ((this.role?.pending.length ?? 0) > 0) prompting.lastSign = now()
          else if (now() - prompting.lastSign > limit) {
            clearInterval(timer)
            this.cancelPrompt(`the agent showed no sign of life for ${limit} ms`)
            reject(new Error(`no answer: the agent showed no sign of life for ${limit} ms; session/cancel sent`))
          }
        },
        Math.min(1000, limit / 4),
      )
      promise.then(
        (value) => (clearInterval(timer), resolve(value)),
        (error: unknown) => (clearInterval(timer), reject(error)),
      )
    })
  }

  /** `session/cancel` for the prompt in flight: permission requests still asked are answered `cancelled` first, as ACP requires. */
  private cancelPrompt(reason: string): boolean {
    const prompting = this.prompting
    const connection = this.connection
    if (!prompting || !connection) return false
    this.role?.cancelPermissions(reason)
    void connection.agent.notify('session/cancel', { sessionId: prompting.sessionId }).catch(() => {})
    this.logLine('info', `cancelled the prompt in flight (session/cancel): ${reason}`)
    return true
  }

  /** Cancels the prompt in flight: named by its JSON-RPC id, or `prompt` (one prompt runs at a time on a connection). */
  override cancelRequest(requestId: string | number, reason = 'cancelled by the user'): boolean {
    const prompting = this.prompting
    if (!prompting) return false
    if (requestId !== 'prompt' && prompting.requestId !== undefined && String(prompting.requestId) !== String(requestId)) return false
    return this.cancelPrompt(reason)
  }

  override answerServerRequest(id: string | number, answer: ServerRequestAnswer): void {
    if (!this.role) throw new CommandError('not connected', 'failed')
    this.role.answer(id, answer)
  }

  /** The next turn starts a new session (`session/new`): the agent's context starts over. */
  override newContext(): void {
    this.sessionId = undefined
    this.session = undefined
  }

  /** ACP has nothing to list: the agent announces its commands when it likes (they show as discovery steps). */
  async rediscover(): Promise<void> {
    this.logLine('info', 'ACP has no list to ask for: an agent announces its slash commands itself (available_commands_update)')
  }

  /** A call is a prompt of its slash command; its data is the output of the turn's last completed tool call. */
  callEndpoint(tool: string): CallEndpoint {
    return {
      send: async (args) => {
        const result = await this.sendTurn({ tool, arguments: args })
        return { response: result.response, data: result.response.data }
      },
    }
  }
}

function exitPhrase(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`
}
