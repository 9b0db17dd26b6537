import type {
  AppInfo,
  CallReport,
  ClientProfile,
  CommandName,
  CommandOutput,
  CompareResult,
  ConnectionEvent,
  ConnectionState,
  ParsedCommandInput,
  SavedTarget,
  ServerRequestAnswer,
  TargetRef,
  Turn,
  TurnResult,
} from '../../contract'
import type { AuthManager } from '../../auth/authManager'
import type { HookSet } from '../../hooks/hooks'
import type { EventLog } from '../../runtime/eventLog'
import type { CallOptions, SupervisedConnection, TurnOptions } from '../../runtime/supervisedConnection'
import type { RecordingLibrary } from '../../session/library'
import type { Replay, ReplayOptions } from '../../session/replay'
import type { ApprovalStore } from '../approvals'
import type { AppViews } from '../appViews'
import type { HooksFileChoices } from '../hooksFiles'
import type { ProfileStore } from '../profileStore'
import type { TapControl } from '../tapFollowers'
import type { TargetStore } from '../targetStore'
import type { OperationPairing } from '../../compare/compare'

/**
 * What command handlers may use of the engine: its stores, its connections, and the operations on
 * state the engine owns (connections, hooks, recorders, replays). The Engine implements it; a handler
 * sees nothing else.
 */
export interface CommandContext {
  readonly events: EventLog
  readonly targets: TargetStore
  readonly profiles: ProfileStore
  readonly approvals: ApprovalStore
  /** Sign-ins and the credentials they obtain, per target. */
  readonly auth: AuthManager
  /** The MCP App views open now. */
  readonly apps: AppViews
  /** Hooks files to pick from (the built-in examples, the recent ones) and the host's file dialog. */
  readonly hooksFiles: HooksFileChoices
  /** Whether this host's user may name a file to record into (the CLI's --out); UI hosts record into the library. */
  readonly recordsToFiles: boolean
  info(): AppInfo
  /** The recordings library; refused on an engine without a data folder. */
  requireLibrary(): RecordingLibrary

  /** A saved target by id, or an unsaved one as given (refused when it would take a saved target's id). */
  resolveTarget(ref: TargetRef): Promise<SavedTarget>
  /** Approves a target's command as it is now (the user typed or reviewed it). */
  approveTarget(target: SavedTarget): Promise<void>

  connection(connectionId: string): SupervisedConnection
  connectionsOf(targetId: string): SupervisedConnection[]
  /** Creates and starts opening a connection for the user; with `reuse`, the target's live session is returned instead. */
  openConnection(
    target: SavedTarget,
    options: { reuse: boolean; profile?: ClientProfile; purpose?: 'session' | 'recording' },
  ): Promise<SupervisedConnection>
  /** Closes a connection and opens a new session to its target in its place. */
  reconnect(connectionId: string): Promise<{ connection: SupervisedConnection; previous: ConnectionState }>
  closeConnection(connectionId: string): Promise<boolean>
  /** The event that says why a connection could not be made, if it could not. */
  failureOf(connection: SupervisedConnection): ConnectionEvent | undefined

  sendTurn(connectionId: string, turn: Turn, options?: TurnOptions): Promise<TurnResult>
  callTool(
    connectionId: string,
    tool: string,
    args: Record<string, unknown>,
    view?: { id: string; uri: string },
    options?: CallOptions,
  ): Promise<CallReport>
  loadHooks(connectionId: string, path: string): Promise<{ source: string; kind: HookSet['kind']; tools: string[] }>
  clearHooks(connectionId: string): boolean
  /** A person's answer to what a connection's server asks (sampling, elicitation). */
  answerServerRequest(connectionId: string, id: string | number, answer: ServerRequestAnswer): void
  /** A target's roots changed: its live connections answer with the new ones and tell their servers. */
  rootsChanged(target: SavedTarget): Promise<void>

  /** Tells the tap of an observed connection what to hold, or what becomes of a held message (refused for any other connection). */
  tapControl(connectionId: string, control: TapControl): void

  startRecording(connectionId: string, path: string, name?: string): string
  stopRecording(connectionId: string): CommandOutput<'recordings.stop'>
  startReplay(options: ReplayOptions): Promise<Replay & { total: number }>
  replay(replayId: string): Replay

  compare(
    a: { target: SavedTarget; profile?: ClientProfile },
    b: { target: SavedTarget; profile?: ClientProfile },
    pairing?: OperationPairing,
    prompt?: string,
  ): Promise<CompareResult>
}

/** One command's handler: its input as the contract's schema parsed it, its output as the contract types it. */
export type Handler<C extends CommandName> = (
  input: ParsedCommandInput<C>,
  engine: CommandContext,
) => Promise<CommandOutput<C>> | CommandOutput<C>

/** Every command's handler: a command without one, or with a mistyped one, does not compile. */
export type Handlers = { [C in CommandName]: Handler<C> }

/** The handlers of one domain: every command named `<domain>.…`, for each of the `Domain` prefixes given. */
export type DomainHandlers<Domain extends string> = { [C in Extract<CommandName, `${Domain}.${string}`>]: Handler<C> }
