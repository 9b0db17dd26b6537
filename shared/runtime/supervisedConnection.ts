import {
  CommandError,
  isApprovalRequired,
  type A2aMessage,
  type A2aPushConfig,
  type A2aTask,
  type CallReport,
  type ConnectionEvent,
  type ConnectionOwner,
  type ConnectionOptions,
  type ConnectionState,
  type ConversationContext,
  type DiscoveryMethod,
  type EngineEvent,
  type RequestAnswer,
  type EventInput,
  type FailureCause,
  type Health,
  type LogEvent,
  type LogLevel,
  type Protocol,
  type Root,
  type SavedTarget,
  type ServerRequestAnswer,
  type TransportKind,
  type Turn,
  type TurnResult,
} from '../contract'
import type { EventLog } from './eventLog'
import { FrameSpill } from './frameSpill'
import { now } from './clock'
import { ConnectFailure, errorMessage } from './errors'
import { withinConnection } from './faultScope'
import { ResendMarks } from './resendMarks'

export interface ProbeOutcome {
  probe: string
  note?: string
}

/** Thrown by `probeOnce` so the failed probe's method still shows on the keepalive event. */
export class ProbeError extends Error {
  constructor(
    readonly probe: string,
    message: string,
  ) {
    super(message)
  }
}

export interface TurnOptions {
  /** Stream the answer where the agent can (A2A SendStreamingMessage). */
  stream?: boolean
  /** Start a new conversation context first, where the protocol has one. */
  newContext?: boolean
  /** MCP: whether the tool call asks for progress (a token each report of which restarts the timeout); asked unless false. */
  progress?: boolean
}

export interface ExchangeOptions {
  /** Whether the exchange is conversation messages too (false: frames only, e.g. argument completion as the user types). */
  conversation?: boolean
  /** Whether to ask for progress (MCP: a progress token); unset, as `asksProgress` says for the method. */
  progress?: boolean
}

/** How a call is made: MCP `task` makes it a task (2025-11-25 task-augmented request) where the server takes one. */
export interface CallOptions {
  task?: boolean
}

/** A tool (MCP) or a skill (A2A) as an inspected call reaches it: its schemas where the protocol has them, and how to send it. */
export interface CallEndpoint {
  inputSchema?: unknown
  outputSchema?: unknown
  /** Sends the (hooked) arguments; returns the response and its structured data for the checks, and the task it went through as. */
  send(
    args: Record<string, unknown>,
  ): Promise<{ response: unknown; data: unknown; structured?: unknown; task?: CallReport['task']; turn?: number }>
}

/** A protocol's tasks (A2A): work with a state, a history and a stream of its own. */
export interface TaskOperations {
  /** The task, with its history as the conversation model. */
  getTask(taskId: string, historyLength?: number): Promise<{ task: A2aTask; conversation: ConversationContext }>
  /** The tasks of a context (the conversation's own by default). */
  listTasks(contextId?: string): Promise<A2aTask[]>
  cancelTask(taskId: string): Promise<A2aTask>
  /** Follows a running task's stream to its end; the task as it ended (or the message it ended with). */
  resubscribe(taskId: string): Promise<A2aTask | A2aMessage | null>
}

/** The push-notification configs of a protocol's tasks (A2A): made, read, listed and removed on the agent. */
export interface PushConfigOperations {
  /** Points the agent at a webhook of Parallax's receiver; a task change with no push within `expectWithinMs` is a finding. */
  create(taskId: string, expectWithinMs: number): Promise<A2aPushConfig>
  get(taskId: string, configId: string): Promise<A2aPushConfig>
  list(taskId: string): Promise<A2aPushConfig[]>
  delete(taskId: string, configId: string): Promise<{ deleted: true }>
}

type ConnectionExtras = Partial<
  Pick<ConnectionEvent, 'reason' | 'attempt' | 'maxAttempts' | 'delayMs' | 'pid' | 'approval' | 'reconnected' | 'cause'>
>
type OwnEventInput = EngineEvent extends infer E ? (E extends EngineEvent ? Omit<EventInput<E>, 'connectionId'> : never) : never

/** Bounded exponential backoff: base, 2×base, 4×base … capped at max. */
export function backoffDelay(attempt: number, options: Pick<ConnectionOptions, 'reconnectBaseDelayMs' | 'reconnectMaxDelayMs'>): number {
  return Math.min(options.reconnectBaseDelayMs * 2 ** Math.max(0, attempt - 1), options.reconnectMaxDelayMs)
}

/**
 * The life of one connection, protocol aside: establish, keep alive with periodic probes, move
 * health healthy → degraded → down on failures, reconnect a down connection with bounded backoff and
 * a bounded number of attempts (each one an event), and close without leaving timers or processes.
 * Protocols supply `establish`, `probeOnce` and `teardown`, and the operations the engine asks of every
 * connection whatever its protocol: a turn, a call, discovery again; an operation a protocol does not
 * have (tasks, a conversation context) is refused with a CommandError that says so.
 */
export abstract class SupervisedConnection {
  state: ConnectionState = 'connecting'
  /** Where this connection's oversized frames go whole (kept after close, removed with the engine). */
  readonly spill: FrameSpill
  health: Health = 'healthy'
  intervalMs: number
  transport?: TransportKind
  /**
   * Who opened this connection and what for (the user's session, a compare, a replay, a recording); set
   * by whoever creates it, before it opens. Every `connection` event carries it.
   */
  owner: ConnectionOwner = { purpose: 'session', startedAt: Date.now() }
  private consecutiveFailures = 0
  /**
   * Reconnect attempts spent since the connection last proved itself with an answered probe, so a
   * server that comes back only to die again (flapping) still runs out of attempts.
   */
  private attemptsUsed = 0
  private keepaliveTimer: ReturnType<typeof setTimeout> | undefined
  private wakeReconnect: (() => void) | undefined
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined
  private probing: Promise<boolean> | undefined
  private opening: Promise<boolean> | undefined
  protected closed = false
  /** Bumped on every teardown so callbacks from a previous transport are ignored. */
  protected generation = 0
  /** Requests sent again from Frames: their frames and answers are linked to the frame they repeat. */
  readonly resends = new ResendMarks()

  constructor(
    readonly id: string,
    readonly target: SavedTarget,
    protected readonly log: EventLog,
    readonly options: ConnectionOptions,
    readonly protocol: Protocol,
  ) {
    this.intervalMs = options.keepaliveIntervalMs
    this.spill = new FrameSpill(options.maxFrameBytes, (text) => log.store.keepPayload(id, text))
  }

  /** Connect, handshake and discover. Must throw when the connection could not be made. */
  protected abstract establish(): Promise<void>
  /** One keepalive probe; resolves when the agent answered, throws `ProbeError` otherwise. */
  protected abstract probeOnce(): Promise<ProbeOutcome>

  /** Why the probe is what it is (the protocol era's rule), carried on each keepalive event. */
  protected probeRule(): string | undefined {
    return undefined
  }
  /** Release the transport (and any child process). Must not throw. */
  protected abstract teardown(): Promise<void>

  /** One conversation turn: an A2A message, an MCP tool call. */
  abstract sendTurn(turn: Turn, options?: TurnOptions): Promise<TurnResult>
  /** The tool (MCP) or skill (A2A) named `tool`, as an inspected call reaches it. */
  abstract callEndpoint(tool: string, options?: CallOptions): CallEndpoint
  /** Discovery again, on the user's request; what it found (or why it failed) is discovery events. */
  abstract rediscover(): Promise<void>

  /** What discovery last listed for one of the protocol's lists (MCP `tools/list`, `resources/list`, …); none for the rest. */
  catalogEntries(_method: DiscoveryMethod): unknown[] | undefined {
    return undefined
  }

  /** Starts the conversation over: the next turn begins a new context. */
  newContext(): void {
    throw this.unsupported('conversation context to start over')
  }

  /** The protocol's tasks. */
  tasks(): TaskOperations {
    throw this.unsupported('tasks')
  }

  /** The push-notification configs of the protocol's tasks (A2A). */
  pushConfigs(): PushConfigOperations {
    throw this.unsupported('push notifications')
  }

  /** Asks the agent for its log messages at `level` and above (MCP `logging/setLevel`). */
  setLogLevel(_level: LogLevel): Promise<void> {
    return Promise.reject(this.unsupported('log level to set'))
  }

  /** Any request of the protocol's own by method (MCP: `prompts/get`, `resources/read`, …), and how it was answered. */
  request(_method: string, _params: Record<string, unknown> | undefined, _options: ExchangeOptions = {}): Promise<RequestAnswer> {
    return Promise.reject(this.unsupported('requests by method (that is MCP)'))
  }

  /** Stops waiting for one of the user's requests in flight and tells the agent; false when it is not in flight. */
  cancelRequest(_requestId: string | number, _reason?: string): boolean {
    throw this.unsupported('requests to cancel')
  }

  /** A person's answer to a request the agent sent its client and that waits for one (MCP sampling, elicitation). */
  answerServerRequest(_id: string | number, _answer: ServerRequestAnswer): void {
    throw this.unsupported('requests from the agent to answer')
  }

  /** The roots offered to the agent (MCP `roots/list`); a live session is told they changed. */
  setRoots(_roots: Root[]): Promise<void> {
    return Promise.reject(this.unsupported('roots'))
  }

  protected unsupported(what: string): CommandError {
    return new CommandError(`this ${this.protocol.toUpperCase()} connection has no ${what}`, 'invalid-input')
  }

  protected emit(input: OwnEventInput): void {
    this.resends.before(input)
    const resent = this.resends.mark(input)
    const event = this.log.emit(Object.assign(input, { connectionId: this.id }) as EventInput)
    if (resent && event.type === 'frame') this.resends.sentAs(event.seq, event.resendOf!)
  }

  protected setState(state: ConnectionState, extras: ConnectionExtras = {}): void {
    this.state = state
    this.emit({
      type: 'connection',
      state,
      targetId: this.target.id,
      targetName: this.target.name,
      protocol: this.protocol,
      transport: this.transport,
      owner: this.owner,
      ...extras,
    })
  }

  protected logLine(level: LogEvent['level'], text: string, source: 'engine' | 'transport' | 'stderr' = 'engine'): void {
    this.emit({ type: 'log', source, level, text })
  }

  /**
   * Resolves true once connected, false when the first attempt failed (the reason is an event). Opens once,
   * as this connection's work: whatever it starts (processes, sockets, keepalive) is laid at its door if it faults.
   */
  open(): Promise<boolean> {
    this.opening ??= withinConnection(this.id, () => this.openFirst())
    return this.opening
  }

  /** How the first attempt ended, once it has (false when the connection was never opened). */
  firstOutcome(): Promise<boolean> {
    return this.opening ?? Promise.resolve(false)
  }

  private async openFirst(): Promise<boolean> {
    this.setState('connecting')
    try {
      await this.establish()
    } catch (error) {
      await this.teardownQuietly()
      const details = error instanceof CommandError ? error.details : undefined
      if (!this.closed)
        this.setState('failed', {
          reason: errorMessage(error),
          ...(isApprovalRequired(details) && { approval: details.approval }),
          ...(error instanceof ConnectFailure && { cause: error.failure }),
        })
      return false
    }
    if (this.closed) return false
    this.markConnected()
    return true
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.clearTimers()
    await this.teardownQuietly()
    this.setState('closed')
  }

  /**
   * Ends the connection from outside its own work — a fault in it that no code handled (runtime/faultScope.ts) —
   * so the rest of Parallax goes on: said in its log, torn down (its process stopped), failed with `reason`.
   * It does not reconnect by itself; the user can.
   */
  async fail(reason: string, cause?: FailureCause): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.clearTimers()
    this.logLine('error', reason)
    await this.teardownQuietly()
    this.setState('failed', { reason, ...(cause && { cause }) })
  }

  /** Resolves once work the connection started by itself (e.g. a list_changed refresh) is done. */
  async settled(): Promise<void> {}

  get isFinished(): boolean {
    return this.state === 'closed' || this.state === 'failed'
  }

  get isLive(): boolean {
    return this.state === 'connected' || this.state === 'degraded'
  }

  setKeepaliveInterval(intervalMs: number): void {
    this.intervalMs = intervalMs
    if (this.isLive) this.scheduleKeepalive()
  }

  /** Runs a probe now (or joins the one in flight). Resolves with whether the agent answered. */
  probeNow(): Promise<boolean> {
    if (!this.isLive) return Promise.resolve(false)
    this.probing ??= this.runProbe().finally(() => {
      this.probing = undefined
      if (this.isLive) this.scheduleKeepalive()
    })
    return this.probing
  }

  /** Called by the protocol layer when its transport closed without being asked to. */
  protected onTransportClosed(generation: number, reason: string, cause?: FailureCause): void {
    if (generation !== this.generation || this.closed || !this.isLive) return
    this.logLine('warn', reason)
    this.goDown(reason, cause)
  }

  private markConnected(extras: ConnectionExtras = {}): void {
    this.consecutiveFailures = 0
    this.health = 'healthy'
    this.setState('connected', { ...extras, pid: this.pid })
    this.scheduleKeepalive()
  }

  /** The child process id, for stdio transports. */
  protected get pid(): number | undefined {
    return undefined
  }

  private scheduleKeepalive(): void {
    if (this.keepaliveTimer) clearTimeout(this.keepaliveTimer)
    if (this.closed) return
    this.keepaliveTimer = setTimeout(() => void this.probeNow(), this.intervalMs)
  }

  private async runProbe(): Promise<boolean> {
    const generation = this.generation
    const started = now()
    const rule = this.probeRule()
    let outcome: ProbeOutcome | undefined
    let failure: { probe: string; message: string } | undefined
    try {
      outcome = await this.probeOnce()
    } catch (error) {
      failure = { probe: error instanceof ProbeError ? error.probe : 'probe', message: errorMessage(error) }
    }
    if (generation !== this.generation || this.closed) return false
    const rttMs = now() - started
    if (outcome) {
      this.consecutiveFailures = 0
      this.attemptsUsed = 0
      this.health = 'healthy'
      this.emitProbe(outcome.probe, true, rttMs, { note: outcome.note, rule })
      if (this.state === 'degraded') this.setState('connected', { reason: 'probe answered again' })
      return true
    }
    this.consecutiveFailures++
    const down = this.consecutiveFailures >= this.options.failuresToDown
    this.health = down ? 'down' : 'degraded'
    this.emitProbe(failure!.probe, false, rttMs, { error: failure!.message, rule })
    if (down) this.goDown(`${this.consecutiveFailures} consecutive probes failed: ${failure!.message}`)
    else this.setState('degraded', { reason: failure!.message })
    return false
  }

  private emitProbe(probe: string, ok: boolean, rttMs: number, extra: { note?: string; error?: string; rule?: string }): void {
    const { rule, ...rest } = extra
    this.emit({
      type: 'keepalive',
      probe,
      ok,
      rttMs,
      health: this.health,
      intervalMs: this.intervalMs,
      consecutiveFailures: this.consecutiveFailures,
      ...rest,
      ...(rule && { rule }),
    })
  }

  private goDown(reason: string, cause?: FailureCause): void {
    if (this.closed || this.state === 'reconnecting' || this.state === 'failed') return
    this.health = 'down'
    this.clearTimers()
    void this.teardownQuietly().then(() => this.reconnect(reason, cause))
  }

  private async reconnect(reason: string, cause?: FailureCause): Promise<void> {
    const maxAttempts = this.options.reconnectAttempts
    // Why it went down, for the `connected` event that says it came back (the reason below changes per attempt).
    const down = { cause: reason, downSince: Date.now() }
    for (let attempt = this.attemptsUsed + 1; attempt <= maxAttempts; attempt++) {
      this.attemptsUsed = attempt
      const delayMs = backoffDelay(attempt, this.options)
      this.setState('reconnecting', { attempt, maxAttempts, delayMs, reason, ...(cause && { cause }) })
      await this.sleep(delayMs)
      if (this.closed) return
      try {
        await this.establish()
        if (this.closed) return
        this.markConnected({ reason: `reconnected on attempt ${attempt} of ${maxAttempts}`, attempt, maxAttempts, reconnected: down })
        return
      } catch (error) {
        reason = errorMessage(error)
        cause = error instanceof ConnectFailure ? error.failure : undefined
        await this.teardownQuietly()
        if (this.closed) return
      }
    }
    this.setState('failed', {
      reason: maxAttempts === 0 ? `down: ${reason}` : `gave up after ${maxAttempts} reconnect attempts: ${reason}`,
      ...(cause && { cause }),
    })
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeReconnect = resolve
      this.reconnectTimer = setTimeout(resolve, ms)
    })
  }

  private clearTimers(): void {
    if (this.keepaliveTimer) clearTimeout(this.keepaliveTimer)
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.keepaliveTimer = this.reconnectTimer = undefined
    this.wakeReconnect?.()
    this.wakeReconnect = undefined
  }

  private async teardownQuietly(): Promise<void> {
    this.generation++
    try {
      await this.teardown()
    } catch {
      // teardown is best effort; the protocol layer reports its own errors
    }
  }
}
