import { CommandError, forUi, type FrameEvent } from '../../contract'
import type { CommandContext, DomainHandlers } from './handler'

/** The event log as a UI catches up on it (payloads it does not fold left behind), and frames' payloads on demand. */
export const eventCommands: DomainHandlers<'events' | 'frames'> = {
  'events.since': ({ afterSeq, limit }, engine) => engine.events.since(afterSeq, limit).map(forUi),
  'events.backlog': ({ afterSeq, limit }, engine) => engine.events.backlog(afterSeq, limit),
  'frames.payloads': ({ connectionId, seqs }, engine) => ({ payloads: seqs.map((seq) => frameOf(engine, connectionId, seq).payload) }),
  'frames.export': ({ connectionId, seq }, engine) => {
    const connection = engine.connection(connectionId)
    const frame = frameOf(engine, connectionId, seq)
    if (!frame.truncated?.file)
      throw new CommandError(
        frame.truncated ? 'the whole payload could not be kept (the disk refused it)' : 'this frame is shown whole already',
        'invalid-input',
      )
    return { text: connection.spill.read(frame.truncated.file), bytes: frame.bytes }
  },
}

function frameOf(engine: CommandContext, connectionId: string, seq: number): FrameEvent {
  const frame = engine.events.at(seq)
  if (frame?.type !== 'frame' || frame.connectionId !== connectionId)
    throw new CommandError(`no frame #${seq} on this connection`, 'not-found')
  return frame
}
