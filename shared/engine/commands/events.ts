import { CommandError } from '../../contract'
import type { DomainHandlers } from './handler'

/** The event log as a UI catches up on it, and the whole payload of a frame kept truncated. */
export const eventCommands: DomainHandlers<'events' | 'frames'> = {
  'events.since': ({ afterSeq, limit }, engine) => engine.events.since(afterSeq, limit),
  'frames.export': ({ connectionId, seq }, engine) => {
    const connection = engine.connection(connectionId)
    const frame = engine.events.since(seq - 1)[0]
    if (!frame || frame.seq !== seq || frame.type !== 'frame' || frame.connectionId !== connectionId)
      throw new CommandError(`no frame #${seq} on this connection`, 'not-found')
    if (!frame.truncated?.file)
      throw new CommandError(
        frame.truncated ? 'the whole payload could not be kept (the disk refused it)' : 'this frame is shown whole already',
        'invalid-input',
      )
    return { text: connection.spill.read(frame.truncated.file), bytes: frame.bytes }
  },
}
