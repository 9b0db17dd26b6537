import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import type { ConnectionEvent, EngineEvent, EventInput, FrameEvent, LogEvent, SessionSummary } from '../contract'
import type { FrameSpill } from '../runtime/frameSpill'
import type { ObservedOptions, ObservedSession } from '../tap/observedSession'

/** How much of a tap's events file is read at one poll at most: a long backlog is caught up on over several. */
const READ_BYTES = 4 * 1024 * 1024
/** Lines the tap wrote before its session began (its notes, the server's stderr as it starts), kept at most. */
const EARLY_LINES = 200

export interface FollowedTapOptions {
  /** The tap's session folder, and its summary when it was found. */
  dir: string
  summary: SessionSummary
  /** The connection this app shows it as. */
  connectionId: string
  emit: (event: EventInput) => EngineEvent
  spill: FrameSpill
  protocolFields?: readonly string[]
  /** Makes the session's analysis (shared/tap, loaded when a tap is first found: not on every start). */
  observe: (options: ObservedOptions) => ObservedSession
}

/**
 * One session a running `parallax tap` writes, followed as it grows: each new complete line of its
 * `events.jsonl` is read, and the session is analysed again here, as a connection of this engine — the
 * tap's frames (a large one's whole text read from the tap's payloads), its stderr lines and notes, its
 * held messages and its end go into an `ObservedSession` of this engine's own, which derives the rest
 * (handshake, discovery, calls, findings) with this engine's event numbers. Nothing is sent anywhere.
 */
export class FollowedTap {
  /** Made on the tap's first connection event, which names the session, its protocol and the host. */
  private session: ObservedSession | undefined
  /** What the tap said before that (its notes, the server's first stderr lines), bounded. */
  private early: LogEvent[] = []
  private offset = 0
  private rest: Buffer = Buffer.alloc(0)
  private ended = false
  private named: string | undefined
  /** The messages the tap holds now (hold in flight), by hold id. */
  private readonly held = new Set<number>()

  constructor(private readonly options: FollowedTapOptions) {}

  /** What the session is called (the tap's `--name`, else the command), once its first connection event is read. */
  get name(): string | undefined {
    return this.named
  }

  get dir(): string {
    return this.options.dir
  }

  /** The tap's process, which writes the session. */
  get writer(): { pid: number; start?: string } {
    return this.options.summary.writer!
  }

  /** Whether the tap holds the message `holdId` now, as far as its session has said. */
  holds(holdId: number): boolean {
    return this.held.has(holdId)
  }

  get isEnded(): boolean {
    return this.ended
  }

  /** Reads what the tap appended since the last read (complete lines only), and takes each event in. */
  read(): void {
    if (this.ended) return
    let fd: number
    try {
      fd = openSync(join(this.options.dir, 'events.jsonl'), 'r')
    } catch {
      return // not written yet
    }
    try {
      const size = fstatSync(fd).size
      if (size <= this.offset) return
      const chunk = Buffer.alloc(Math.min(size - this.offset, READ_BYTES))
      const got = readSync(fd, chunk, 0, chunk.length, this.offset)
      this.offset += got
      const text = Buffer.concat([this.rest, chunk.subarray(0, got)])
      const last = text.lastIndexOf(0x0a)
      this.rest = Buffer.from(text.subarray(last + 1))
      if (last < 0) return
      for (const line of text.subarray(0, last).toString('utf8').split('\n')) this.take(line)
    } finally {
      closeSync(fd)
    }
  }

  /** The tap went away without ending its session: what it wrote is read, then the session is said to be cut short. */
  cutShort(): void {
    this.read()
    if (this.ended) return
    this.end(Date.now(), { failed: 'cut short: parallax tap stopped without ending this session (a crash or a kill)' })
  }

  /** The user stopped following it here: the host's session goes on, this app no longer shows it growing. */
  stop(): void {
    if (this.ended) return
    this.end(Date.now(), { reason: 'no longer followed in this app (the host and the server go on)' })
  }

  private take(line: string): void {
    if (!line || this.ended) return
    let event: EngineEvent
    try {
      event = JSON.parse(line) as EngineEvent
    } catch {
      return // a torn line: the tap's store says so itself
    }
    if (!this.session && event.type !== 'connection') {
      if (event.type === 'log' && this.early.length < EARLY_LINES) this.early.push(event)
      return
    }
    switch (event.type) {
      case 'frame':
        return this.frame(event)
      case 'log':
        return this.log(event)
      case 'hold': {
        if (event.holdId !== undefined && event.state === 'held') this.held.add(event.holdId)
        else if (event.holdId !== undefined) this.held.delete(event.holdId)
        const { seq, ...hold } = event // stamped with this engine's number and connection as it is emitted
        void seq
        return this.session!.event(hold)
      }
      case 'connection':
        if (!this.session) this.begin(event)
        if (event.state === 'closed' || event.state === 'failed') this.endAs(event)
        return
      default:
        // Handshake, discovery, keepalive, calls, conversation: this engine's analysis derives them again.
        return
    }
  }

  private begin(first: ConnectionEvent): void {
    const { summary } = this.options
    this.named = first.targetName
    this.session = this.options.observe({
      connectionId: this.options.connectionId,
      name: first.targetName,
      transport: first.transport ?? summary.transport ?? 'stdio',
      protocol: first.protocol,
      observed: { via: 'stdio', ...first.owner?.observed, tapSession: summary.id },
      emit: this.options.emit,
      spill: this.options.spill,
      protocolFields: this.options.protocolFields,
    })
    for (const line of this.early.splice(0)) this.log(line)
  }

  private frame(frame: FrameEvent): void {
    if (frame.direction !== 'out' && frame.direction !== 'in') return
    const whole = frame.truncated?.file && this.wholeText(frame.truncated.file)
    if (whole === undefined) return this.session!.message(frame.direction, frame.payload, frame.ts)
    let message: unknown = whole
    try {
      message = JSON.parse(whole)
    } catch {
      // kept as the text it was
    }
    this.session!.message(frame.direction, message, frame.ts, whole)
  }

  /** A frame's whole text, kept in the tap's payloads (`payloads.bin#offset+length`). */
  private wholeText(ref: string): string | undefined {
    const at = /^payloads\.bin#(\d+)\+(\d+)$/.exec(ref)
    if (!at) return undefined
    let fd: number | undefined
    try {
      fd = openSync(join(this.options.dir, 'payloads.bin'), 'r')
      const buffer = Buffer.alloc(Number(at[2]))
      const got = readSync(fd, buffer, 0, buffer.length, Number(at[1]))
      return buffer.subarray(0, got).toString('utf8')
    } catch {
      return undefined
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
  }

  /**
   * A line of the tap's log: the server's stderr and the tap's own notes are taken as they are; what the
   * tap's analysis found (findings, the server's log messages) is found again here from the frames.
   */
  private log(log: LogEvent): void {
    if (log.source === 'stderr') return this.session!.stderr(log.text, log.ts)
    if (log.source === 'server' || (log.source === 'engine' && log.oddity)) return
    if (log.source === 'engine') return this.session!.note(log.text, log.ts, log.level === 'debug' ? 'info' : log.level)
    const { seq, ...line } = log
    void seq
    this.session!.event(line)
  }

  private endAs(event: ConnectionEvent): void {
    const exit = event.cause?.exit
    this.end(event.ts, {
      ...(event.state === 'failed'
        ? { failed: event.reason ?? 'the session failed' }
        : event.reason !== undefined && { reason: event.reason }),
      ...(exit && { exit }),
    })
  }

  private end(ts: number, how: Parameters<ObservedSession['end']>[1]): void {
    this.ended = true
    this.session?.end(ts, how)
  }
}
