import type { EngineEvent, EventInput, Protocol, TargetSpec } from '../contract'
import { EventLog } from '../runtime/eventLog'
import { FrameSpill } from '../runtime/frameSpill'
import { SessionStore } from '../runtime/store/sessionStore'
import { RecordingWriter } from '../session/recording'

/** Frames larger than this keep a preview inline and their whole text in the session's payloads (as a driven connection's default). */
const MAX_FRAME_BYTES = 1_000_000

export interface TapLogOptions {
  /** The data folder's `sessions/`, shared with the app: the session is there for it, live or later (none: a temporary folder, removed at the end). */
  sessionsDir?: string
  connectionId: string
  /** `--record FILE`: a recording of the session besides; its header names what was tapped, once the protocol is known. */
  record?: { path: string; name: string; spec: (protocol: Protocol) => TargetSpec | undefined }
  secretKeys?: string[]
  /** Told once, in words, when Parallax can no longer keep the session (the session itself goes on). */
  onFailure: (why: string) => void
}

/**
 * A tap's log in its data folder's sessions; where that folder refuses (a file in its place, no room, no
 * rights), in a temporary one, said once through `onFailure`: the host's session goes on, though no app sees it.
 */
export function openTapLog(options: TapLogOptions & { sessionsDir: string }): TapLog {
  try {
    return new TapLog(options)
  } catch (error) {
    options.onFailure(`cannot keep the session in ${options.sessionsDir} (${(error as Error).message})`)
    return new TapLog({ ...options, sessionsDir: undefined })
  }
}

/**
 * Where a tap's events go: its session in the shared sessions folder (host `tap`: the app shows it live,
 * or finds it there later) and, with `--record`, a recording. Each failure is told once; none stops the relay.
 */
export class TapLog {
  readonly store: SessionStore
  readonly events: EventLog
  readonly spill: FrameSpill
  private recording: RecordingWriter | undefined
  /** Events before the connection's first state (which names the protocol the recording's header needs). */
  private beforeHeader: EngineEvent[] | undefined = []
  private failed = false

  constructor(private readonly options: TapLogOptions) {
    this.store = new SessionStore({ dir: options.sessionsDir, host: 'tap', secretKeys: options.secretKeys })
    this.events = new EventLog(this.store)
    const told = this.store.onFailure
    this.store.onFailure = (connectionId, why) => {
      told?.(connectionId, why)
      this.fail(why)
    }
    this.spill = new FrameSpill(MAX_FRAME_BYTES, (text) => this.store.keepPayload(options.connectionId, text))
    if (options.record) this.events.subscribe((event) => this.record(event))
  }

  emit(input: EventInput): EngineEvent {
    return this.events.emit(input)
  }

  /** The folder of the session being written (once its first event is). */
  sessionDir(): string | undefined {
    const id = this.store.sessionOf(this.options.connectionId)
    return id && `${this.store.dir}/${id}`
  }

  close(): void {
    this.store.flush()
    this.store.dispose()
    this.recording?.close()
  }

  private record(event: EngineEvent): void {
    if (this.beforeHeader && event.type !== 'connection') {
      if (this.beforeHeader.length < 1_000) this.beforeHeader.push(event)
      return
    }
    if (this.beforeHeader && event.type === 'connection') this.begin(event.protocol)
    if (!this.recording) return
    this.recording.write(event)
    if (this.recording.error) {
      this.fail(this.recording.error)
      this.recording = undefined
    }
  }

  private begin(protocol: Protocol): void {
    const { path, name, spec } = this.options.record!
    const waiting = this.beforeHeader ?? []
    this.beforeHeader = undefined
    try {
      const tapped = spec(protocol)
      this.recording = new RecordingWriter(
        path,
        {
          targets: [{ id: `tap:${name}`, name, ...(tapped && { spec: tapped }) }],
          connection: { id: this.options.connectionId, purpose: 'tap', startedAt: Date.now() },
          context: 0,
        },
        this.options.secretKeys,
      )
    } catch (error) {
      return this.fail(`recording to ${path} could not start: ${(error as Error).message}`)
    }
    for (const event of waiting) this.recording.write(event)
  }

  private fail(why: string): void {
    if (this.failed) return
    this.failed = true
    this.options.onFailure(why)
  }
}
