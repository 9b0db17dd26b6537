import { join } from 'node:path'
import {
  CommandError,
  ConnectionOptions,
  DEFAULT_CONNECTION_OPTIONS,
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
import { AuthManager, authTargetOf } from '../auth/authManager'
import { withStepUp } from '../auth/stepUp'
import { FileSecretStore, MemorySecretStore } from '../auth/secretStore'
import { PushReceiver } from '../a2a/pushReceiver'
import type { OperationPairing } from '../compare/compare'
import { compareSides, type CompareSide } from '../compare/compareRun'
import type { HookSet } from '../hooks/hooks'
import { NO_BUILT_INS, type BuiltIns } from '../runtime/builtIns'
import { EventLog } from '../runtime/eventLog'
import { SessionStore } from '../runtime/store/sessionStore'
import { withinConnection, type Fault } from '../runtime/faultScope'
import { removeDeadSpills } from '../runtime/frameSpill'
import { answerForUi, deeperThan, MAX_DEPTH } from '../runtime/safeJson'
import type { CallOptions, SupervisedConnection, TurnOptions } from '../runtime/supervisedConnection'
import { RecordingLibrary } from '../session/library'
import type { Replay, ReplayOptions } from '../session/replay'
import { PARALLAX_VERSION } from '../version'
import { ApprovalStore } from './approvals'
import { AppViews } from './appViews'
import { handlers, type CommandContext } from './commands'
import { ConnectionFactory } from './connectionFactory'
import { reportFault } from './faultReport'
import type { EngineOptions } from './engineOptions'
import { HooksFileChoices } from './hooksFiles'
import { AdcpChecks } from './adcpChecks'
import { InspectedCalls } from './inspectedCalls'
import { ProfileStore } from './profileStore'
import { Recorders } from './recorders'
import { Replays } from './replays'
import { TapFollowers, type TapControl } from './tapFollowers'
import { TargetStore } from './targetStore'

export type { EngineOptions } from './engineOptions'

/**
 * The one engine every host drives. It owns targets, connections, hooks, recorders and replays, and
 * turns everything that happens into events on `events`. Hosts reach it through the command API
 * (shared/contract/commands/): `execute` for UI hosts, `invoke` for the CLI in this process; both
 * validate the input here, the one place that does. Each command's handler is in ./commands, by domain.
 */
export class Engine implements CommandContext {
  readonly events: EventLog
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
  private readonly factory: ConnectionFactory
  /** Inspected calls, and the hooks per target they run through. */
  private readonly calls: InspectedCalls
  /** AdCP's rules for calls and turns to AdCP agents (loaded when first needed). */
  private readonly adcp: AdcpChecks
  private readonly defaults: ConnectionOptions
  private readonly builtIns: BuiltIns
  private readonly recorders: Recorders
  private readonly replays = new Replays(this)
  private nextCompare = 0
  /** The webhook receiver for A2A push notifications (127.0.0.1), started when a connection first asks for a webhook. */
  private readonly pushReceiver = new PushReceiver()
  /** Sessions of running taps in the data folder, shown live as observed connections (UI hosts with a data folder). */
  readonly taps: TapFollowers | undefined

  constructor(private readonly options: EngineOptions) {
    // What a Parallax that crashed left in the temporary folder goes now (its own goes with dispose).
    void removeDeadSpills()
    this.defaults = ConnectionOptions.parse({ ...DEFAULT_CONNECTION_OPTIONS, ...options.defaults })
    this.builtIns = options.builtIns ?? NO_BUILT_INS
    // Where each store keeps its file in the data folder (an engine without one keeps everything in memory,
    // but its sessions: in a temporary folder, removed with it).
    const inDataDir = (name: string) => options.dataDir && join(options.dataDir, name)
    const sessionsDir = options.sessionsDir ?? inDataDir('sessions')
    this.events = new EventLog(new SessionStore({ dir: sessionsDir, host: options.host, secretKeys: options.secretKeys }))
    this.adcp = new AdcpChecks(this.events)
    if (sessionsDir && (options.followTaps ?? options.host !== 'cli'))
      this.taps = new TapFollowers({
        store: this.events.store,
        emit: (event) => this.events.emit(event),
        protocolFields: options.protocolFields,
      })
    this.auth = new AuthManager({
      store: options.secrets ?? (options.dataDir ? new FileSecretStore(join(options.dataDir, 'secrets.json')) : new MemorySecretStore()),
      emit: (event) => this.events.emit(event),
      openBrowser: options.openBrowser,
      askPerson: options.stepUpByPerson ?? options.host !== 'cli',
    })
    this.targets = new TargetStore(this.builtIns.targets, inDataDir('targets.json'), (target, secret) =>
      this.auth.keepClientSecret(authTargetOf(target)!, secret),
    )
    this.profiles = new ProfileStore(inDataDir('profiles.json'))
    this.hooksFiles = new HooksFileChoices(this.builtIns.hooksDir, inDataDir('recent-hooks.json'), options.chooseFile)
    this.approvals = new ApprovalStore(options.approvalsFile ?? inDataDir('approvals.json'), options.approver)
    const recordings = options.recordingsDir ?? inDataDir('recordings')
    this.library = recordings ? new RecordingLibrary(recordings, this.builtIns.recordings) : undefined
    this.recordsToFiles = options.recordToFiles ?? false
    this.recorders = new Recorders(this.events, options.secretKeys)
    this.apps = new AppViews(this.events, options.appViewUrl)
    const { events, approvals, builtIns, defaults } = this
    this.factory = new ConnectionFactory({
      events,
      defaults,
      builtIns,
      approvals,
      profiles: this.profiles,
      targets: this.targets,
      auth: this.auth,
      pushReceiver: this.pushReceiver,
      askUser: options.askUser ?? options.host !== 'cli',
    })
    this.calls = new InspectedCalls({
      events,
      approvals,
      hooksFiles: this.hooksFiles,
      builtInHooksDir: builtIns.hooksDir,
      protocolFields: options.protocolFields,
      adcp: this.adcp,
    })
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

  /** A fault no code handled fails the connection whose work it came from, and nothing else (./faultReport.ts). */
  reportFault(fault: Fault): { line: string; failed?: string } {
    return reportFault(fault, (connectionId) => this.connections.get(connectionId), this.events)
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
    this.calls.announceHooks(connection)
    return connection
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
    this.calls.announceHooks(connection)
    return { connection, previous }
  }

  /**
   * Creates (without opening) a connection for a target, saved or unsaved (the CLI's), owned by `owner`
   * (the user's session unless a feature opens it for itself). A command the user has not approved is
   * refused where it is built, whoever asks (connect, compare, replay): `approval-required`.
   */
  async createConnection(
    target: SavedTarget,
    profile?: ClientProfile,
    owner: Omit<ConnectionOwner, 'startedAt'> = { purpose: 'session' },
  ): Promise<SupervisedConnection> {
    const connection = await this.factory.create(target, profile, owner)
    this.connections.set(connection.id, connection)
    return connection
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

  /** Approves a target's command as it is now (the user typed or reviewed it); nothing to approve for the rest. */
  async approveTarget(target: SavedTarget, options: { persist?: boolean } = {}): Promise<void> {
    if (!runsCommand(target.spec)) return
    await this.approvals.requireCommand({ ...target.spec, kind: 'mcp-stdio' }, target).catch(async (error) => {
      if (!(error instanceof CommandError) || !isApprovalRequired(error.details)) throw error
      await this.approvals.grant(error.details.approval.fingerprint, options)
    })
  }

  /** A connection Parallax drives; an observed one (a tap's) is refused: nothing is sent into it, nothing of its is changed. */
  connection(connectionId: string): SupervisedConnection {
    const connection = this.connections.get(connectionId)
    if (connection) return connection
    const observed = this.taps?.observedName(connectionId)
    if (observed !== undefined)
      throw new CommandError(`${observed} is observed through parallax tap: Parallax sends nothing into it`, 'invalid-input')
    throw new CommandError(`no connection with id "${connectionId}"`, 'not-found')
  }

  hasConnection(connectionId: string): boolean {
    return this.connections.has(connectionId)
  }

  connectionsOf(targetId: string): SupervisedConnection[] {
    return [...this.connections.values()].filter((c) => c.target.id === targetId)
  }

  /** Closes a connection; an observed one is no longer followed here (the host's session goes on). */
  async closeConnection(connectionId: string): Promise<boolean> {
    if (this.taps?.isFollowed(connectionId)) return this.taps.stop(connectionId)
    const connection = this.connections.get(connectionId)
    if (!connection) return false
    await connection.close()
    return true
  }

  failureOf(connection: SupervisedConnection): ConnectionEvent | undefined {
    const last = this.events.lastState(connection.id)
    return last?.state === 'failed' ? last : undefined
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
      return withStepUp(what, () => connection.sendTurn(turn, options)).then((result) =>
        this.adcp.checkTurn(connectionId, connection.protocol, turn, result),
      )
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
    return withinConnection(connectionId, () => this.calls.call(this.connection(connectionId), tool, args, view, options))
  }

  /** Loads (or reloads) a hooks file for the connection's target. A bad file leaves the old hooks in place. */
  loadHooks(connectionId: string, path: string): Promise<{ source: string; kind: HookSet['kind']; tools: string[] }> {
    return this.calls.loadHooks(this.connection(connectionId), path)
  }

  clearHooks(connectionId: string): boolean {
    return this.calls.clearHooks(this.connection(connectionId))
  }

  /** Hold in flight on an observed connection: the decision goes to its tap (./tapFollowers.ts). */
  tapControl(connectionId: string, control: TapControl): void {
    if (!this.taps) throw new CommandError('this app does not follow taps (it has no data folder, or is the CLI)', 'failed')
    this.taps.control(connectionId, control)
  }

  // ── Compare, recordings, replays ──

  /** Connects two sides, each under its profile, and diffs what they exposed (shared/compare/compareRun.ts). */
  compare(a: CompareSide, b: CompareSide, pairing?: OperationPairing, prompt?: string): Promise<CompareResult> {
    return compareSides(this, `c${++this.nextCompare}`, a, b, pairing, prompt)
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

  /** Opens the replay's own connections, stopping any replay before it (./replays.ts); the caller steps or runs it. */
  startReplay(options: ReplayOptions): Promise<Replay & { total: number }> {
    return this.replays.start(options)
  }

  replay(replayId: string): Replay {
    return this.replays.get(replayId)
  }

  /** Closes every connection: no child process or timer outlives the engine. */
  async dispose(): Promise<void> {
    this.auth.close()
    this.recorders.stopAll()
    this.apps.dispose()
    this.replays.stopAll()
    this.taps?.dispose()
    await Promise.all([...this.connections.values()].map((c) => c.close()))
    await this.pushReceiver.close()
    await this.builtIns.dispose()
    this.events.store.dispose()
    this.taps?.removeMirrors()
  }
}

function unknownCommand(command: unknown): CommandError {
  return new CommandError(`unknown command ${JSON.stringify(command)}`, 'unknown-command')
}
