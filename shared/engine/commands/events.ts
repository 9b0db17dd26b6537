import { CommandError, forUi, type EngineEvent } from '../../contract'
import type { CommandContext, DomainHandlers } from './handler'

/** The event log as a UI catches up on it (what it does not show at once left behind), and that on demand: frames' payloads, log lines' texts. */
export const eventCommands: DomainHandlers<'events' | 'frames' | 'logs'> = {
  'events.since': ({ afterSeq, limit }, engine) => engine.events.since(afterSeq, limit).map(forUi),
  'events.backlog': ({ afterSeq, limit }, engine) => engine.events.backlog(afterSeq, limit),
  'frames.payloads': ({ connectionId, seqs }, engine) => ({
    payloads: seqs.map((seq) => eventOf(engine, connectionId, seq, 'frame').payload),
  }),
  'logs.texts': ({ connectionId, seqs }, engine) => ({ texts: seqs.map((seq) => eventOf(engine, connectionId, seq, 'log').text) }),
  'frames.export': ({ connectionId, seq }, engine) => {
    const connection = engine.connection(connectionId)
    const frame = eventOf(engine, connectionId, seq, 'frame')
    if (!frame.truncated?.file)
      throw new CommandError(
        frame.truncated ? 'the whole payload could not be kept (the disk refused it)' : 'this frame is shown whole already',
        'invalid-input',
      )
    return { text: connection.spill.read(frame.truncated.file), bytes: frame.bytes }
  },
}

function eventOf<T extends 'frame' | 'log'>(
  engine: CommandContext,
  connectionId: string,
  seq: number,
  type: T,
): Extract<EngineEvent, { type: T }> {
  const event = engine.events.at(seq)
  if (event?.type !== type || event.connectionId !== connectionId)
    throw new CommandError(`no ${type === 'frame' ? 'frame' : 'log line'} #${seq} on this connection`, 'not-found')
  return event as Extract<EngineEvent, { type: T }>
}
