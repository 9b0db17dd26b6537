import {
  CommandError,
  isApprovalRequired,
  type ConnectionEvent,
  type ConnectionOptions,
  type ConnectionState,
  type EngineEvent,
  type EventInput,
  type Health,
  type Protocol,
  type SavedTarget,
  type TransportKind,
} from '../contract'
import type { EventLog } from './eventLog'
import { FrameSpill } from './frameSpill'
import { now } from './clock'
import { errorMessage } from './errors'

export interface ProbeOutcome {
  probe: string
  note?: string
}

/** Thrown by `probeOnce` so the failed probe's method still shows on the keepalive event. */
export class ProbeError extends Error {
  constructor(readonly probe: string, message: string) {
    super(message)
  }
}

type ConnectionExtras = Partial<Pick<ConnectionEvent, 'reason' | 'attempt' | 'maxAttempts' | 'delayMs' | 'pid' | 'approval'>>
type OwnEventInput = EngineEvent extends infer E ? (E extends EngineEvent ? Omit<EventInput<E>, 'connectionId'> : never) : never

/** Bounded exponential backoff: base, 2×base, 4×base … capped at max. */
export function backoffDelay(attempt: number, options: Pick<ConnectionOptions, 'reconnectBaseDelayMs' | 'reconnectMaxDelayMs'>): number {
  return Math.min(options.reconnectBaseDelayMs * 2 ** Math.max(0, attempt - 1), options.reconnectMaxDelayMs)
}

/**
 * The life of one connection, protocol aside: establish, keep alive with periodic probes, move
 * health healthy → degraded → down on failures, reconnect a down connection with bounded backoff and
 * a bounded number of attempts (each one an event), and close without leaving timers or processes.
 * Protocols supply `establish`, `probeOnce` and `teardown`.
 */
export abstract class SupervisedConnection {
  state: ConnectionState = 'connecting'
  /** Where this connection's oversized frames go whole (kept after close, removed with the engine). */
  readonly spill: FrameSpill
  health: Health = 'healthy'
  intervalMs: number
  transport?: TransportKind
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
  protected closed = false
  /** Bumped on every teardown so callbacks from a previous transport are ignored. */
  protected generation = 0

  constructor(
    readonly id: string,
    readonly target: SavedTarget,
    protected readonly log: EventLog,
    readonly options: ConnectionOptions,
    readonly protocol: Protocol,
  ) {
    this.intervalMs = options.keepaliveIntervalMs
    this.spill = new FrameSpill(options.maxFrameBytes)
  }

  /** Connect, handshake and discover. Must throw when the connection could not be made. */
  protected abstract establish(): Promise<void>
  /** One keepalive probe; resolves when the agent answered, throws `ProbeError` otherwise. */
  protected abstract probeOnce(): Promise<ProbeOutcome>
  /** Release the transport (and any child process). Must not throw. */
  protected abstract teardown(): Promise<void>

  protected emit(input: OwnEventInput): void {
    this.log.emit(Object.assign(input, { connectionId: this.id }) as EventInput)
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
      ...extras,
    })
  }

  protected logLine(level: 'info' | 'warn' | 'error', text: string, source: 'engine' | 'transport' | 'stderr' = 'engine'): void {
    this.emit({ type: 'log', source, level, text })
  }

  /** Resolves true once connected, false when the first attempt failed (the reason is an event). */
  async open(): Promise<boolean> {
    this.setState('connecting')
    try {
      await this.establish()
    } catch (error) {
      await this.teardownQuietly()
      const details = error instanceof CommandError ? error.details : undefined
      if (!this.closed) this.setState('failed', { reason: errorMessage(error), ...(isApprovalRequired(details) && { approval: details.approval }) })
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
  protected onTransportClosed(generation: number, reason: string): void {
    if (generation !== this.generation || this.closed || !this.isLive) return
    this.logLine('warn', reason)
    this.goDown(reason)
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
      this.emitProbe(outcome.probe, true, rttMs, { note: outcome.note })
      if (this.state === 'degraded') this.setState('connected', { reason: 'probe answered again' })
      return true
    }
    this.consecutiveFailures++
    const down = this.consecutiveFailures >= this.options.failuresToDown
    this.health = down ? 'down' : 'degraded'
    this.emitProbe(failure!.probe, false, rttMs, { error: failure!.message })
    if (down) this.goDown(`${this.consecutiveFailures} consecutive probes failed: ${failure!.message}`)
    else this.setState('degraded', { reason: failure!.message })
    return false
  }

  private emitProbe(probe: string, ok: boolean, rttMs: number, extra: { note?: string; error?: string }): void {
    this.emit({
      type: 'keepalive',
      probe,
      ok,
      rttMs,
      health: this.health,
      intervalMs: this.intervalMs,
      consecutiveFailures: this.consecutiveFailures,
      ...extra,
    })
  }

  private goDown(reason: string): void {
    if (this.closed || this.state === 'reconnecting' || this.state === 'failed') return
    this.health = 'down'
    this.clearTimers()
    void this.teardownQuietly().then(() => this.reconnect(reason))
  }

  private async reconnect(reason: string): Promise<void> {
    const maxAttempts = this.options.reconnectAttempts
    for (let attempt = this.attemptsUsed + 1; attempt <= maxAttempts; attempt++) {
      this.attemptsUsed = attempt
      const delayMs = backoffDelay(attempt, this.options)
      this.setState('reconnecting', { attempt, maxAttempts, delayMs, reason })
      await this.sleep(delayMs)
      if (this.closed) return
      try {
        await this.establish()
        if (this.closed) return
        this.markConnected({ reason: `reconnected on attempt ${attempt} of ${maxAttempts}`, attempt, maxAttempts })
        return
      } catch (error) {
        reason = errorMessage(error)
        await this.teardownQuietly()
        if (this.closed) return
      }
    }
    this.setState('failed', {
      reason: maxAttempts === 0 ? `down: ${reason}` : `gave up after ${maxAttempts} reconnect attempts: ${reason}`,
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
