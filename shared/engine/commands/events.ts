import { ANSWER_BYTES, CommandError, forUi, type EngineEvent } from '../../contract'
import type { CommandContext, DomainHandlers } from './handler'

/** The event log as a UI catches up on it (what it does not show at once left behind), and that on demand: frames' payloads, log lines' texts. */
export const eventCommands: DomainHandlers<'events' | 'frames' | 'logs'> = {
  'events.since': ({ afterSeq, limit }, engine) => engine.events.since(afterSeq, limit).map(forUi),
  'events.backlog': ({ afterSeq, limit }, engine) => engine.events.backlog(afterSeq, limit),
  'frames.payloads': ({ connectionId, seqs }, engine) => ({
    payloads: asFit(seqs, (seq) => {
      const frame = eventOf(engine, connectionId, seq, 'frame')
      return [frame.payload, frame.truncated?.shownBytes ?? frame.bytes]
    }),
  }),
  'logs.texts': ({ connectionId, seqs }, engine) => ({
    texts: asFit(seqs, (seq) => {
      const { text } = eventOf(engine, connectionId, seq, 'log')
      return [text, text.length]
    }),
  }),
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

/** The values of `seqs`, in order, as many as fit in one answer (at least one): the asker asks again for the rest. */
function asFit<T>(seqs: number[], valueOf: (seq: number) => [value: T, size: number]): T[] {
  const values: T[] = []
  let size = 0
  for (const seq of seqs) {
    const [value, bytes] = valueOf(seq)
    if (values.length && size + bytes > ANSWER_BYTES) break
    values.push(value)
    size += bytes
  }
  return values
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
