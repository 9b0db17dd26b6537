import { CommandError } from '../contract'
import type { EventLog } from '../runtime/eventLog'
import type { SupervisedConnection } from '../runtime/supervisedConnection'
import { RecordingWriter } from '../session/recording'

/**
 * The connections being recorded, each into its JSON Lines file: what the connection said so far, then
 * every event as it comes, redacted and flushed line by line. A write that fails (disk full, folder
 * read-only) stops that recording, says so, and the session goes on.
 */
export class Recorders {
  private readonly active = new Map<string, { writer: RecordingWriter; name: string; stop: () => void }>()

  constructor(
    private readonly events: EventLog,
    /** Extra key names redacted, besides authorization, cookies, tokens and keys. */
    private readonly secretKeys?: string[],
  ) {}

  start(connection: SupervisedConnection, path: string, name = path): string {
    const connectionId = connection.id
    const running = this.active.get(connectionId)
    if (running) throw new CommandError(`this connection is already being recorded as "${running.name}"`, 'invalid-input')
    let writer: RecordingWriter
    try {
      const { id, name: targetName, spec, origin } = connection.target
      writer = new RecordingWriter(path, { targets: [{ id, name: targetName, ...(origin !== 'demo' && { spec }) }] }, this.secretKeys)
      if (writer.error) throw new Error(`the first line could not be written (${writer.error.split(' stopped: ').pop()})`)
    } catch (error) {
      const message = `cannot record to ${path}: ${(error as Error).message}`
      this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: message })
      throw new CommandError(message, 'failed')
    }
    // Recording starts with what the connection already said, so a replay has the whole session.
    for (const event of this.events.since(0)) if (event.connectionId === connectionId) writer.write(event)
    const unsubscribe = this.events.subscribe((event) => {
      if (event.connectionId !== connectionId || event.type === 'recording') return
      writer.write(event)
      if (writer.error) {
        unsubscribe()
        this.active.delete(connectionId)
        this.events.emit({ type: 'recording', connectionId, state: 'failed', name, error: writer.error })
      }
    })
    this.active.set(connectionId, { writer, name, stop: unsubscribe })
    this.events.emit({ type: 'recording', connectionId, state: 'started', name })
    return name
  }

  stop(connectionId: string): { name: string; lines: number } {
    const recorder = this.active.get(connectionId)
    if (!recorder) throw new CommandError('this connection is not being recorded', 'invalid-input')
    recorder.stop()
    recorder.writer.close()
    this.active.delete(connectionId)
    this.events.emit({ type: 'recording', connectionId, state: 'stopped', name: recorder.name, lines: recorder.writer.lines })
    return { name: recorder.name, lines: recorder.writer.lines }
  }

  stopAll(): void {
    for (const connectionId of [...this.active.keys()]) this.stop(connectionId)
  }
}
