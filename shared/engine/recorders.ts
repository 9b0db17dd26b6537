import { CommandError, type EngineEvent } from '../contract'
import type { EventLog } from '../runtime/eventLog'
import type { SupervisedConnection } from '../runtime/supervisedConnection'
import { RecordingWriter } from '../session/recording'

interface ActiveRecording {
  writer: RecordingWriter
  name: string
  /** Events written after the header, the context included. */
  events: number
  /** The conversation turns recorded (each user message's turn number, once). */
  turns: Set<number>
  stop: () => void
}

/**
 * The connections being recorded, each into its JSON Lines file, from the moment recording starts:
 * first the connection's state then as context (docs/architecture.md, "Recordings"), then every event
 * as it comes, redacted and flushed line by line. Nothing the connection did before is recorded. A
 * write that fails (disk full, folder read-only) stops that recording, says so, and the session goes on.
 */
export class Recorders {
  private readonly active = new Map<string, ActiveRecording>()

  constructor(
    private readonly events: EventLog,
    /** Extra key names redacted, besides authorization, cookies, tokens and keys. */
    private readonly secretKeys?: string[],
  ) {}

  start(connection: SupervisedConnection, path: string, name = path): string {
    const connectionId = connection.id
    const running = this.active.get(connectionId)
    if (running) throw new CommandError(`this connection is already being recorded as "${running.name}"`, 'invalid-input')
    const context = this.events.context(connectionId)
    let writer: RecordingWriter
    try {
      const { id, name: targetName, spec, origin } = connection.target
      const header = {
        targets: [{ id, name: targetName, ...(origin !== 'demo' && { spec }) }],
        connection: { id: connectionId, ...connection.owner },
        context: context.length,
      }
      writer = new RecordingWriter(path, header, this.secretKeys)
      if (writer.error) throw new Error(`the first line could not be written (${writer.error.split(' stopped: ').pop()})`)
    } catch (error) {
      const message = `cannot record to ${path}: ${(error as Error).message}`
      this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: message })
      throw new CommandError(message, 'failed')
    }
    const recording: ActiveRecording = { writer, name, events: 0, turns: new Set(), stop: () => {} }
    const write = (event: EngineEvent) => {
      writer.write(event)
      recording.events++
      if (event.type === 'conversation' && event.message.role === 'user')
        recording.turns.add(event.message.metadata?.turn ?? -(recording.turns.size + 1))
    }
    // The context: what the connection is now (what a replay talks to), not what it did before.
    for (const event of context) write(event)
    recording.stop = this.events.subscribe((event) => {
      if (event.connectionId !== connectionId || event.type === 'recording') return
      write(event)
      if (writer.error) {
        recording.stop()
        this.active.delete(connectionId)
        this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: writer.error })
      }
    })
    this.active.set(connectionId, recording)
    this.events.emit({ type: 'recording', connectionId, state: 'started', name, context: context.length })
    return name
  }

  stop(connectionId: string): { name: string; lines: number; events: number; turns: number } {
    const recorder = this.active.get(connectionId)
    if (!recorder) throw new CommandError('this connection is not being recorded', 'invalid-input')
    recorder.stop()
    recorder.writer.close()
    this.active.delete(connectionId)
    const saved = { name: recorder.name, lines: recorder.writer.lines, events: recorder.events, turns: recorder.turns.size }
    this.events.emit({ type: 'recording', connectionId, state: 'stopped', ...saved })
    return saved
  }

  stopAll(): void {
    for (const connectionId of [...this.active.keys()]) this.stop(connectionId)
  }
}
