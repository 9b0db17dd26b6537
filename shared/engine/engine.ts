import { readFile } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import {
  CommandError,
  ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
  DEFAULT_PROFILE,
  isApprovalRequired,
  isCommandName,
  runsCommand,
  parseCommandInput,
  type AppInfo,
  type CallReport,
  type ClientProfile,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type CompareResult,
  type ConnectionEvent,
  type ConnectionOwner,
  type ConnectionPurpose,
  type ConnectionState,
  type SavedTarget,
  type ServerRequestAnswer,
  type TargetRef,
  type Turn,
  type TurnResult,
} from '../contract'
import type { OriginGate } from '../a2a/a2aConnection'
import { AuthManager, authTargetOf } from '../auth/authManager'
import { ConnectionAuth } from '../auth/connectionAuth'
import { withStepUp } from '../auth/stepUp'
import type { McpServer } from '@agentclientprotocol/sdk'
import { FileSecretStore, MemorySecretStore, type SecretStore } from '../auth/secretStore'
import { PushReceiver } from '../a2a/pushReceiver'
import type { ScriptedResponder } from '../mcp/clientRole'
import { compareSnapshots, snapshotOf, type OperationPairing } from '../compare/compare'
import { inspectCall } from '../hooks/callInspector'
import type { HookSet } from '../hooks/hooks'
import { loadHooks } from '../hooks/loadHooks'
import { loadResponder } from '../hooks/responder'
import type { SchemaValidator } from '../hooks/validator'
import { NO_BUILT_INS, type BuiltIns } from '../runtime/builtIns'
import { EventLog } from '../runtime/eventLog'
import { errorMessage } from '../runtime/errors'
import { withinConnection, type Fault } from '../runtime/faultScope'
import { removeDeadSpills } from '../runtime/frameSpill'
import { isUserModule } from '../runtime/userModules'
import { answerForUi, deeperThan, MAX_DEPTH } from '../runtime/safeJson'
import type { CallOptions, SupervisedConnection, TurnOptions } from '../runtime/supervisedConnection'
import { RecordingLibrary } from '../session/library'
import { Replay, type ReplayOptions } from '../session/replay'
import { PARALLAX_VERSION } from '../version'
import { ApprovalStore, type Approver } from './approvals'
import { AppViews } from './appViews'
import { handlers, type CommandContext } from './commands'
import { HooksFileChoices, type ChooseFile } from './hooksFiles'
import { ProfileStore } from './profileStore'
import { Recorders } from './recorders'
import { TargetStore } from './targetStore'

export interface EngineOptions {
  host: AppInfo['host'] | 'cli'
  /** Where saved targets persist; omit for an in-memory engine. */
  dataDir?: string
  /** The demos and examples that ship with Parallax, provided by the host (shared/demo's `builtInDemos`). */
  builtIns?: BuiltIns
  /** Connection defaults for every target (a target's own options override them). */
  defaults?: Partial<ConnectionOptions>
  /** Envelope fields flagged when found in domain arguments or input schemas. */
  protocolFields?: string[]
  /** Where recordings live; defaults to `<dataDir>/recordings`. */
  recordingsDir?: string
  /** Extra key names redacted from recordings, besides authorization, cookies, tokens and keys. */
  secretKeys?: string[]
  /** Where approvals persist; defaults to `<dataDir>/approvals.json` (in memory without either). */
  approvalsFile?: string
  /** Answers approval requests on the spot (the CLI asks on its terminal); without it they are refused for the host to confirm. */
  approver?: Approver
  /** Lets `recordings.start` record into a file the caller names: for hosts whose user names it (the CLI's --out), never a UI. */
  recordToFiles?: boolean
  /**
   * Whether a person can answer what a server asks (sampling, elicitation): UI hosts, by default. Without
   * one (the CLI), what the target's scripted responder does not answer is answered by Parallax.
   */
  askUser?: boolean
  /**
   * Where tokens and client secrets live: the desktop app's keychain-encrypted store; by default a 0600
   * file in the data folder (`secrets.json`), or memory without one.
   */
  secrets?: SecretStore
  /** Opens a URL in the system browser, for `auth.signIn` (the desktop app's shell, the CLI's opener); UI hosts may open it themselves. */
  openBrowser?: (url: string) => Promise<void>
  /**
   * Whether a person can sign in again when a server asks for more scopes mid-session (a 403
   * insufficient_scope): UI hosts, by default, whose UI prompts; a CLI where a browser can open. The
   * request waits for them and goes again once they have; without one it fails saying what was asked for.
   */
  stepUpByPerson?: boolean
  /**
   * Where the host serves an MCP App view's document (`apps.document`), on an origin that is not the UI's:
   * the web host's second port, the desktop app's own scheme. Hosts that render no views leave it out.
   */
  appViewUrl?: (viewId: string) => string | undefined
  /** The host's own file dialog, for `hooks.browse` (the desktop app's); hosts without one leave it out. */
  chooseFile?: ChooseFile
}

/**
 * The one engine every host drives. It owns targets, connections, hooks, recorders and replays, and
 * turns everything that happens into events on `events`. Hosts reach it through the command API
 * (shared/contract/commands/): `execute` for UI hosts, `invoke` for the CLI in this process; both
 * validate the input here, the one place that does. Each command's handler is in ./commands, by domain.
 */
export class Engine implements CommandContext {
  readonly events = new EventLog()
  readonly targets: TargetStore
  readonly profiles: ProfileStore
  readonly approvals: ApprovalStore
  readonly auth: AuthManager
  readonly library: RecordingLibrary | undefined
  readonly recordsToFiles: boolean
  /** The MCP App views open now: their documents, policies and frame taps. */
  readonly apps: AppViews
  /** Hooks files to pick from: the built-in examples, the recent ones, the host's dialog. */
  readonly hooksFiles: HooksFileChoices
  private readonly connections = new Map<string, SupervisedConnection>()
  private nextConnection = 0
  private readonly defaults: ConnectionOptions
  private readonly builtIns: BuiltIns
  /** Hooks per target, so they survive reconnects. */
  private readonly hooks = new Map<string, HookSet>()
  /** The JSON Schema validator (Ajv), made on the first inspected call: a host starts without it. */
  private validator: Promise<SchemaValidator> | undefined
  private readonly recorders: Recorders
  private readonly replays = new Map<string, Replay>()
  private nextReplay = 0
  private nextCompare = 0
  /** The webhook receiver for A2A push notifications (127.0.0.1), started when a connection first asks for a webhook. */
  private readonly pushReceiver = new PushReceiver()

  constructor(private readonly options: EngineOptions) {
    // What a Parallax that crashed left in the temporary folder goes now (its own goes with dispose).
    void removeDeadSpills()
    this.defaults = ConnectionOptions.parse({ ...DEFAULT_CONNECTION_OPTIONS, ...options.defaults })
    this.builtIns = options.builtIns ?? NO_BUILT_INS
    this.auth = new AuthManager({
      store: options.secrets ?? (options.dataDir ? new FileSecretStore(join(options.dataDir, 'secrets.json')) : new MemorySecretStore()),
      emit: (event) => this.events.emit(event),
      openBrowser: options.openBrowser,
      askPerson: options.stepUpByPerson ?? options.host !== 'cli',
    })
    this.targets = new TargetStore(this.builtIns.targets, options.dataDir && join(options.dataDir, 'targets.json'), (target, secret) =>
      this.auth.keepClientSecret(authTargetOf(target)!, secret),
    )
    this.profiles = new ProfileStore(options.dataDir && join(options.dataDir, 'profiles.json'))
    this.hooksFiles = new HooksFileChoices(
      this.builtIns.hooksDir,
      options.dataDir && join(options.dataDir, 'recent-hooks.json'),
      options.chooseFile,
    )
    this.approvals = new ApprovalStore(
      options.approvalsFile ?? (options.dataDir && join(options.dataDir, 'approvals.json')),
      options.approver,
    )
    const recordings = options.recordingsDir ?? (options.dataDir && join(options.dataDir, 'recordings'))
    this.library = recordings ? new RecordingLibrary(recordings, this.builtIns.recordings) : undefined
    this.recordsToFiles = options.recordToFiles ?? false
    this.recorders = new Recorders(this.events, options.secretKeys)
    this.apps = new AppViews(this.events, options.appViewUrl)
  }

  /**
   * Runs a command for a UI host (Electron's IPC, the web host's socket): the name and input are
   * untrusted and checked here; large agent data in the answer comes as a bounded preview (the whole
   * stays in its frame: frames.export).
   */
  async execute(command: unknown, input: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw unknownCommand(command)
    return answerForUi(command, await this.run(command, input))
  }

  /** The same command API, typed, with whole answers: for a host in this process that writes out what it gets (the CLI). */
  invoke<C extends CommandName>(command: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    return this.run(command, input)
  }

  /** Validates a command's input against the contract, then runs the command's handler. */
  private async run<C extends CommandName>(command: C, input: unknown): Promise<CommandOutput<C>> {
    if (!isCommandName(command)) throw unknownCommand(command)
    // Schemas, hooks and diffs walk the input: it may be nested no deeper than what agents may send.
    if (deeperThan(input, MAX_DEPTH))
      throw new CommandError(`the input of ${command} is nested deeper than ${MAX_DEPTH} levels; Parallax refused it`, 'invalid-input')
    const parsed = parseCommandInput(command, input)
    // A command aimed at a connection is that connection's work: a fault it leaves behind fails that connection alone.
    const connectionId = (parsed as { connectionId?: unknown }).connectionId
    return typeof connectionId === 'string'
      ? withinConnection(connectionId, () => handlers[command](parsed, this))
      : handlers[command](parsed, this)
  }

  /**
   * A fault no code handled (an unhandled rejection, an uncaught exception: runtime/faultScope.ts) fails the
   * connection whose work it came from, saying why, and nothing else: every other connection, recording and UI
   * goes on. One outside any of this engine's connections is said as the engine's own. Returns the line for the
   * host's log, and the connection it failed.
   */
  reportFault({ reason, kind, connectionId }: Fault): { line: string; failed?: string } {
    const stack =
      (reason instanceof Error &&
        reason.stack
          ?.split('\n')
          .slice(1, 9)
          .map((line) => line.trim())) ||
      undefined
    const connection = connectionId === undefined ? undefined : this.connections.get(connectionId)
    const what = `${kind}: ${errorMessage(reason)}`
    if (connection) {
      void connection.fail(`Parallax stopped this connection after an ${what}`, { fault: { kind, ...(stack && { stack }) } })
      return { line: `${connection.id} (${connection.target.name}) failed after an ${what}`, failed: connection.id }
    }
    this.events.emit({ type: 'log', connectionId: 'engine', source: 'engine', level: 'error', text: `Parallax met an ${what}` })
    return { line: `${what}${stack ? `\n  ${stack.join('\n  ')}` : ''}` }
  }

  info(): AppInfo {
    return {
      name: 'Parallax',
      version: PARALLAX_VERSION,
      host: this.options.host === 'electron' ? 'electron' : 'web',
      defaults: this.defaults,
    }
  }

  // ── Targets and connections ──

  /** Opens the user's session to a saved target, or returns the live one it already has. */
  async openTarget(targetId: string): Promise<SupervisedConnection> {
    return this.openConnection(await this.savedTarget(targetId), { reuse: true })
  }

  /**
   * Opens a connection for the user: a session (with `reuse`, the target's live session if it has one),
   * or a CLI recording's own. Connections that features open for themselves (compare, replay) are never
   * reused: what a feature opens, it closes, and it never stands in for the user's session.
   */
  async openConnection(
    target: SavedTarget,
    {
      reuse,
      profile,
      purpose = 'session',
    }: { reuse: boolean; profile?: ClientProfile; purpose?: Extract<ConnectionPurpose, 'session' | 'recording'> },
  ): Promise<SupervisedConnection> {
    if (reuse && purpose === 'session') {
      const live = this.sessionOf(target.id)
      if (live && !live.isFinished) return live
    }
    const connection = await this.createConnection(target, profile, { purpose })
    void connection.open()
    this.announceHooks(connection)
    return connection
  }

  /** A new connection to a target that has hooks says so, so its views show the hooks that will run. */
  private announceHooks(connection: SupervisedConnection): void {
    const set = this.hooks.get(connection.target.id)
    if (set)
      this.events.emit({
        type: 'hooks',
        connectionId: connection.id,
        targetId: connection.target.id,
        source: set.source,
        kind: set.kind,
        tools: Object.keys(set.hooks),
      })
  }

  /** The target's newest session connection (live or not). */
  private sessionOf(targetId: string): SupervisedConnection | undefined {
    return [...this.connections.values()].findLast((c) => c.target.id === targetId && c.owner.purpose === 'session')
  }

  /**
   * Replaces a connection with a new session to the same target: the old one is closed first (a live
   * one too: reconnecting restarts a stdio server), and the new one opens with what the target is now.
   */
  async reconnect(connectionId: string): Promise<{ connection: SupervisedConnection; previous: ConnectionState }> {
    const old = this.connection(connectionId)
    const previous = old.state
    await old.close()
    const target = (await this.targets.get(old.target.id)) ?? old.target
    const connection = await this.createConnection(target, undefined, { purpose: 'session' })
    void connection.open()
    this.announceHooks(connection)
    return { connection, previous }
  }

  /**
   * Creates (without opening) a connection for a target, saved or unsaved (the CLI's), owned by `owner`
   * (the user's session unless a feature opens it for itself). A command the user has not approved is
   * refused here, whoever asks (connect, compare, replay): `approval-required`.
   */
  async createConnection(
    target: SavedTarget,
    profile?: ClientProfile,
    owner: Omit<ConnectionOwner, 'startedAt'> = { purpose: 'session' },
  ): Promise<SupervisedConnection> {
    if (target.origin !== 'demo' && runsCommand(target.spec))
      await this.approvals.requireCommand({ ...target.spec, kind: 'mcp-stdio' }, target)
    const underProfile = profile ?? (await this.profileOf(target))
    const resolved = await this.builtIns.resolve(target)
    const id = `${target.id}#${++this.nextConnection}`
    const options = ConnectionOptions.parse({ ...this.defaults, ...target.options })
    // Tokens are the target's (the user's id for it), sent only to the server they were obtained for.
    const authTarget = authTargetOf({ ...resolved, id: target.id })
    const auth = authTarget && new ConnectionAuth(this.auth, authTarget, id)
    const askUser = this.options.askUser ?? this.options.host !== 'cli'
    // Each protocol's module (and its SDK) is loaded when a connection first needs it: a host starts without them.
    const connection =
      resolved.spec.kind === 'a2a'
        ? new (await import('../a2a/a2aConnection')).A2aConnection(
            id,
            resolved,
            this.events,
            options,
            underProfile,
            this.originGate(target, resolved.spec.url),
            auth,
            this.pushReceiver,
          )
        : resolved.spec.kind === 'acp'
          ? new (await import('../acp/acpConnection')).AcpConnection(id, resolved, this.events, options, {
              profile: underProfile,
              // A replay runs turns the user recorded and asked to run again: its permission requests are allowed
              // unless the target says otherwise; a compare only looks, so it allows nothing. Commands never run unasked.
              client: {
                askUser: askUser && owner.purpose !== 'replay' && owner.purpose !== 'compare',
                policy: {
                  permission:
                    target.responder?.permission ??
                    (owner.purpose === 'replay' ? 'allow' : owner.purpose === 'compare' ? 'reject' : undefined),
                  terminal: target.responder?.terminal,
                },
              },
              mcpServers: await this.mcpServersFor(target, resolved.spec.mcpServers),
            })
          : new (await import('../mcp/mcpConnection')).McpConnection(id, resolved, this.events, options, {
              auth,
              profile: underProfile,
              client: {
                roots: target.roots,
                responder: await this.responderOf(target),
                askUser,
              },
            })
    connection.owner = { ...owner, startedAt: Date.now() }
    this.connections.set(id, connection)
    return connection
  }

  /**
   * The MCP servers an ACP agent is handed in `session/new`, from the user's saved targets. The agent will run
   * a stdio server's command, so that command needs the user's approval as if Parallax ran it.
   */
  private async mcpServersFor(agent: SavedTarget, ids: string[]): Promise<McpServer[]> {
    const servers: McpServer[] = []
    for (const id of ids) {
      const saved = await this.targets.get(id)
      if (!saved) throw new CommandError(`${agent.name} is to be handed the MCP server "${id}", which is no saved target`, 'not-found')
      const { spec } = await this.builtIns.resolve(saved)
      const pairs = (map: Record<string, string>) => Object.entries(map).map(([name, value]) => ({ name, value }))
      if (spec.kind === 'mcp-stdio') {
        if (saved.origin !== 'demo') await this.approvals.requireCommand(spec, saved)
        servers.push({ name: saved.name, command: spec.command, args: spec.args, env: pairs(spec.env) })
      } else if (spec.kind === 'mcp-http')
        servers.push({ type: spec.transport === 'sse' ? 'sse' : 'http', name: saved.name, url: spec.url, headers: pairs(spec.headers) })
      else throw new CommandError(`${saved.name} is no MCP server: an ACP agent is handed MCP servers only`, 'invalid-input')
    }
    return servers
  }

  /** The client profile a target connects under when the caller names none: its own, or the default one (docs/architecture.md, "Answering what servers ask"). */
  private async profileOf(target: SavedTarget): Promise<ClientProfile> {
    try {
      return (await this.profiles.resolve(target.profile ?? DEFAULT_PROFILE))!
    } catch (error) {
      throw new CommandError(`${target.name} connects under ${(error as Error).message}: choose another profile for it`, 'not-found')
    }
  }

  /**
   * A target's scripted responder, loaded afresh (so a reconnect picks up edits). A module runs inside
   * Parallax, so its exact content must be approved, as a hooks module's is; a JSON file is data.
   */
  private async responderOf(target: SavedTarget): Promise<ScriptedResponder | undefined> {
    const file = target.responder?.file
    if (file && isUserModule(file)) {
      const path = resolve(file)
      const content = await readFile(path, 'utf8').catch((error: Error) => {
        throw new CommandError(`cannot read the responder of ${target.name}, ${path}: ${error.message}`, 'invalid-input')
      })
      await this.approvals.requireHooks(path, content, 'Run this responder module inside Parallax?')
    }
    try {
      return await loadResponder(target.responder)
    } catch (error) {
      throw new CommandError(`the responder of ${target.name}: ${(error as Error).message}`, 'invalid-input')
    }
  }

  /** A target's roots changed: each of its live connections answers with the new ones and tells its server. */
  async rootsChanged(target: SavedTarget): Promise<void> {
    for (const connection of this.connectionsOf(target.id))
      if (!connection.isFinished && connection.protocol === 'mcp') await connection.setRoots(target.roots ?? []).catch(() => {})
  }

  /** A person's answer to what a connection's server asks (sampling, elicitation). */
  answerServerRequest(connectionId: string, id: string | number, answer: ServerRequestAnswer): void {
    this.connection(connectionId).answerServerRequest(id, answer)
  }

  async resolveTarget(ref: TargetRef): Promise<SavedTarget> {
    if (!ref.target) return this.savedTarget(ref.targetId ?? '')
    // An unsaved target is never taken for a saved one (nor a demo): hooks and approvals of origins go by id.
    if (await this.targets.get(ref.target.id))
      throw new CommandError(
        `"${ref.target.id}" is a saved target's id: open that one by targetId, or give this one another id`,
        'invalid-input',
      )
    return ref.target
  }

  private async savedTarget(targetId: string): Promise<SavedTarget> {
    const target = await this.targets.get(targetId)
    if (!target) throw new CommandError(`no target with id "${targetId}"`, 'not-found')
    return target
  }

  /** An A2A target may talk to an origin other than its configured one only once the user allowed it. */
  private originGate(target: SavedTarget, url: string): OriginGate {
    const configured = new URL(url).origin
    // A built-in demo agent runs in this process, and every interface its card names is its own (gRPC on a port of its own).
    if (target.origin === 'demo') return { isAllowed: async () => true, require: async () => {} }
    return {
      isAllowed: (origin) => this.approvals.isOriginAllowed(target.id, configured, origin),
      require: (origin, via) => this.approvals.requireOrigin(target, configured, origin, via),
    }
  }

  /** Approves a target's command as it is now (the user typed or reviewed it); nothing to approve for the rest. */
  async approveTarget(target: SavedTarget, options: { persist?: boolean } = {}): Promise<void> {
    if (!runsCommand(target.spec)) return
    await this.approvals.requireCommand({ ...target.spec, kind: 'mcp-stdio' }, target).catch(async (error) => {
      if (!(error instanceof CommandError) || !isApprovalRequired(error.details)) throw error
      await this.approvals.grant(error.details.approval.fingerprint, options)
    })
  }

  connection(connectionId: string): SupervisedConnection {
    const connection = this.connections.get(connectionId)
    if (!connection) throw new CommandError(`no connection with id "${connectionId}"`, 'not-found')
    return connection
  }

  hasConnection(connectionId: string): boolean {
    return this.connections.has(connectionId)
  }

  connectionsOf(targetId: string): SupervisedConnection[] {
    return [...this.connections.values()].filter((c) => c.target.id === targetId)
  }

  async closeConnection(connectionId: string): Promise<boolean> {
    const connection = this.connections.get(connectionId)
    if (!connection) return false
    await connection.close()
    return true
  }

  failureOf(connection: SupervisedConnection): ConnectionEvent | undefined {
    const failed = this.events.since(0).findLast((e) => e.connectionId === connection.id && e.type === 'connection' && e.state === 'failed')
    return failed?.type === 'connection' ? failed : undefined
  }

  /** Why a connection could not open, as a command error; an approval it needs is kept, for the host to ask, and so is the cause whole. */
  connectFailure(connection: SupervisedConnection): CommandError {
    const event = this.failureOf(connection)
    const message = `cannot connect to ${connection.target.name}: ${event?.reason ?? 'unknown error'}`
    return event?.approval
      ? new CommandError(message, 'approval-required', { approval: event.approval })
      : new CommandError(message, 'failed', event?.cause && { cause: event.cause })
  }

  // ── Turns, calls, hooks ──

  /** One turn on any connection: an A2A message, or an MCP tool call. */
  sendTurn(connectionId: string, turn: Turn, options: TurnOptions = {}): Promise<TurnResult> {
    return withinConnection(connectionId, () => {
      const connection = this.connection(connectionId)
      const what = 'tool' in turn ? `tools/call ${turn.tool}` : connection.protocol === 'a2a' ? 'message/send' : 'the turn'
      return withStepUp(what, () => connection.sendTurn(turn, options))
    })
  }

  /**
   * One inspected call — hooks, validation, lint, send, context echo — of a tool (MCP) or a skill (A2A);
   * `view`: the MCP App view that made it, rather than the user.
   */
  callTool(
    connectionId: string,
    tool: string,
    args: Record<string, unknown>,
    view?: { id: string; uri: string },
    options: CallOptions = {},
  ): Promise<CallReport> {
    return withinConnection(connectionId, async () => {
      const connection = this.connection(connectionId)
      const callable = connection.callEndpoint(tool, options)
      const what = connection.protocol === 'a2a' ? `message/send (skill ${tool})` : `tools/call ${tool}`
      // A server asking for more scopes than the token has: the person signs in again, and the call goes again.
      const endpoint = {
        protocol: connection.protocol,
        tool,
        ...callable,
        send: (args: Record<string, unknown>) => withStepUp(what, () => callable.send(args)),
      }
      const validator = await this.schemaValidator()
      const report = await inspectCall(endpoint, args, this.hooks.get(connection.target.id), validator, this.options.protocolFields)
      this.events.emit({ type: 'call', connectionId, ...report, ...(view && { view }) })
      return report
    })
  }

  private schemaValidator(): Promise<SchemaValidator> {
    return (this.validator ??= import('../hooks/validator').then(({ SchemaValidator }) => new SchemaValidator()))
  }

  /** Loads (or reloads) a hooks file for the connection's target. A bad file leaves the old hooks in place. */
  async loadHooks(connectionId: string, path: string): Promise<{ source: string; kind: HookSet['kind']; tools: string[] }> {
    const { target } = this.connection(connectionId)
    await this.requireHooksApproval(path)
    let set: HookSet
    try {
      set = await loadHooks(path)
    } catch (error) {
      const message = (error as Error).message
      this.events.emit({
        type: 'hooks',
        connectionId,
        targetId: target.id,
        tools: Object.keys(this.hooks.get(target.id)?.hooks ?? {}),
        source: this.hooks.get(target.id)?.source,
        error: message,
      })
      throw new CommandError(message, 'invalid-input')
    }
    this.hooks.set(target.id, set)
    await this.hooksFiles.remember(set.source)
    const tools = Object.keys(set.hooks)
    this.events.emit({ type: 'hooks', connectionId, targetId: target.id, source: set.source, kind: set.kind, tools })
    return { source: set.source, kind: set.kind, tools }
  }

  /**
   * A hooks module runs inside Parallax, so its exact content must be approved (a declarative `.json`
   * file is data and needs none; the examples that ship with Parallax are its own).
   */
  async requireHooksApproval(file: string): Promise<void> {
    const path = resolve(file)
    const own = this.builtIns.hooksDir
    if (extname(path) === '.json' || (own && path.startsWith(own + sep))) return
    const content = await readFile(path, 'utf8').catch((error: Error) => {
      throw new CommandError(`cannot read hooks file ${path}: ${error.message}`, 'invalid-input')
    })
    await this.approvals.requireHooks(path, content)
  }

  clearHooks(connectionId: string): boolean {
    const { target } = this.connection(connectionId)
    const cleared = this.hooks.delete(target.id)
    this.events.emit({ type: 'hooks', connectionId, targetId: target.id, tools: [] })
    return cleared
  }

  // ── Compare, recordings, replays ──

  /**
   * Connects each side (its own connection, under its profile, owned by this compare: never the user's
   * session), waits until discovery has settled, and diffs what the two exposed. The connections (and
   * their processes) close afterwards, whatever happened; their frames stay.
   */
  async compare(
    a: { target: SavedTarget; profile?: ClientProfile },
    b: { target: SavedTarget; profile?: ClientProfile },
    pairing?: OperationPairing,
    /** ACP: sent on each ACP side once it settled, so the compare shows the tools the agent used, not only what it exposed. */
    prompt?: string,
  ): Promise<CompareResult> {
    const sides: SupervisedConnection[] = []
    const by = `c${++this.nextCompare}`
    try {
      for (const [side, { target, profile }] of [['A', a] as const, ['B', b] as const])
        sides.push(
          await this.createConnection(target, profile, { purpose: 'compare', by, side: profile ? `${side} (${profile.name})` : side }),
        )
      const opened = await Promise.all(sides.map((c) => c.open()))
      opened.forEach((ok, i) => {
        if (!ok) throw this.connectFailure(sides[i])
      })
      await Promise.all(sides.map((c) => c.settled()))
      if (prompt) await Promise.all(sides.filter((c) => c.protocol === 'acp').map((c) => c.sendTurn({ text: prompt })))
      const events = this.events.since(0)
      const report = compareSnapshots(snapshotOf(events, sides[0].id), snapshotOf(events, sides[1].id), pairing)
      const describe = (i: number, profile?: ClientProfile) => ({
        targetId: sides[i].target.id,
        targetName: sides[i].target.name,
        ...(profile && { profile: profile.name }),
        connectionId: sides[i].id,
      })
      return { a: describe(0, a.profile), b: describe(1, b.profile), ...report }
    } finally {
      await Promise.all(sides.map((c) => c.close()))
    }
  }

  requireLibrary(): RecordingLibrary {
    if (!this.library) throw new CommandError('recordings need a data folder', 'failed')
    return this.library
  }

  /**
   * Records a connection from now on into a JSON Lines file, redacted, flushed per line: its state now
   * (handshake, catalog) as context at the top, then every event as it happens.
   */
  startRecording(connectionId: string, path: string, name = path): string {
    return this.recorders.start(this.connection(connectionId), path, name)
  }

  stopRecording(connectionId: string): { name: string; lines: number; events: number; turns: number } {
    return this.recorders.stop(connectionId)
  }

  /**
   * Opens the replay's own connections; the caller steps or runs it. A replay that has not ended is
   * stopped first (its connections close, unless it keeps them): one replay runs at a time.
   */
  async startReplay(options: ReplayOptions): Promise<Replay & { total: number }> {
    for (const earlier of this.replays.values()) earlier.stop()
    const replay = Object.assign(new Replay(this, `r${++this.nextReplay}`, options), { total: options.turns.length })
    this.replays.set(replay.id, replay)
    try {
      await replay.start()
    } catch (error) {
      await replay.close()
      this.replays.delete(replay.id)
      throw error instanceof CommandError ? error : new CommandError((error as Error).message, 'failed')
    }
    return replay
  }

  replay(replayId: string): Replay {
    const replay = this.replays.get(replayId)
    if (!replay) throw new CommandError(`no replay "${replayId}"`, 'not-found')
    return replay
  }

  /** Closes every connection: no child process or timer outlives the engine. */
  async dispose(): Promise<void> {
    this.auth.close()
    this.recorders.stopAll()
    this.apps.dispose()
    for (const replay of this.replays.values()) replay.stop()
    await Promise.all([...this.connections.values()].map((c) => c.close()))
    for (const connection of this.connections.values()) connection.spill.dispose()
    await this.pushReceiver.close()
    await this.builtIns.dispose()
  }
}

function unknownCommand(command: unknown): CommandError {
  return new CommandError(`unknown command ${JSON.stringify(command)}`, 'unknown-command')
}
