import { ANSWER_BYTES, CommandError, forUi, type EngineEvent, type FrameRows } from '../../contract'
import { rowsAt, rowsOfPositions } from '../../runtime/store/backlogPages'
import type { SessionFiles } from '../../runtime/store/sessionFiles'
import { firstRecordAbove } from '../../runtime/store/sessionIndex'
import type { CommandContext, DomainHandlers } from './handler'

/**
 * The event log as a UI catches up on it (what it does not show at once left behind), and that on demand:
 * frames and log lines by position, the frames a filter lets through, frames' payloads, log lines' texts. All
 * of it is read from the connection's session on disk (runtime/store), a live one's or a past one's.
 */
export const eventCommands: DomainHandlers<'events' | 'frames' | 'logs'> = {
  'events.since': ({ afterSeq, limit }, engine) => engine.events.since(afterSeq, limit).map(forUi),
  'events.backlog': ({ afterSeq, limit }, engine) => engine.events.backlog(afterSeq, limit),
  'frames.rows': ({ connectionId, from, count }, engine) => ({ from, rows: rowsAt(filesOf(engine, connectionId), 'frames', from, count) }),
  'logs.rows': ({ connectionId, from, count }, engine) => ({ from, rows: rowsAt(filesOf(engine, connectionId), 'logs', from, count) }),
  'frames.find': ({ connectionId, filter, from, count }, engine) => {
    const files = filesOf(engine, connectionId)
    const matches = engine.events.store.frameMatches(connectionId, filter)
    const positions: number[] = []
    for (let k = from; k < Math.min(matches.total, from + count); k++) positions.push(matches.positionOf(k))
    return { total: matches.total, frames: matches.scanned, positions, rows: rowsOfPositions(files, 'frames', positions) as FrameRows }
  },
  'frames.locate': ({ connectionId, seqs }, engine) => {
    const files = filesOf(engine, connectionId)
    return { positions: seqs.map((seq) => firstRecordAbove(files.index('frames'), 'seq', seq - 1)) }
  },
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
    const frame = eventOf(engine, connectionId, seq, 'frame')
    if (!frame.truncated?.file)
      throw new CommandError(
        frame.truncated ? 'the whole payload could not be kept (the disk refused it)' : 'this frame is shown whole already',
        'invalid-input',
      )
    return { text: engine.events.store.wholePayload(connectionId, frame.truncated.file), bytes: frame.bytes }
  },
}

function filesOf(engine: CommandContext, connectionId: string): SessionFiles {
  const files = engine.events.store.files(connectionId)
  if (!files) throw new CommandError(`no session of connection "${connectionId}"`, 'not-found')
  return files
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
  // Looked for in the connection's session alone (a past session's events keep the id they had in their run).
  const event = engine.events.at(seq, connectionId)
  if (event?.type !== type) throw new CommandError(`no ${type === 'frame' ? 'frame' : 'log line'} #${seq} on this connection`, 'not-found')
  return event as Extract<EngineEvent, { type: T }>
}
