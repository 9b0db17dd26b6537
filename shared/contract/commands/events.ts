import { z } from 'zod'
import type { BacklogPage, FrameRows, LogRows } from '../backlog'
import { FramesFilter } from '../framesFilter'
import type { EngineEvent } from '../events'
import { ROWS_PER_REQUEST, SEQS_PER_REQUEST } from '../onDemand'
import { ConnectionRef } from './refs'

const Seqs = z.array(z.number().int().min(1)).min(1).max(SEQS_PER_REQUEST)

/** The event log as a UI catches up on it (what it does not show at once left behind), and that on demand: frames' payloads, log lines' texts. */
export const eventInputs = {
  /** Every event after `afterSeq`, at most `limit` of them, each as a UI receives it live. */
  'events.since': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
  /**
   * The backlog a UI needs when it (re)attaches, packed (see backlog.ts): after `afterSeq`, every event but
   * frames and log lines, and each connection's latest frames and log lines as rows, at most `limit` in all;
   * the next page starts after the page's `lastSeq`.
   */
  'events.backlog': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
  /** A connection's frames (or a past session's, `session:<id>`) by position, from 0: rows `from` to `from + count - 1`. */
  'frames.rows': ConnectionRef.extend({ from: z.number().int().min(0), count: z.number().int().min(1).max(ROWS_PER_REQUEST) }),
  /** Its log lines by position, likewise (their texts: logs.texts). */
  'logs.rows': ConnectionRef.extend({ from: z.number().int().min(0), count: z.number().int().min(1).max(ROWS_PER_REQUEST) }),
  /**
   * The frames a filter lets through, for a long session: how many there are, and matches `from` to
   * `from + count - 1` (from 0, among the matches) with their positions among all the connection's frames.
   */
  'frames.find': ConnectionRef.extend({
    filter: FramesFilter,
    from: z.number().int().min(0),
    count: z.number().int().min(0).max(ROWS_PER_REQUEST),
  }),
  /**
   * Where frames are among a connection's frames, by number: for each seq, the position (from 0) of the first frame
   * numbered `seq` or later (the count of its frames when none is), so a UI holding only some of a long session's
   * frames finds one a link names, or a turn's range.
   */
  'frames.locate': ConnectionRef.extend({ seqs: z.array(z.number().int().min(0)).min(1).max(1000) }),
  /** The whole payload of a frame that was kept truncated for its size. */
  'frames.export': ConnectionRef.extend({ seq: z.number().int().min(1) }),
  /** Frames' payloads as the engine keeps them, for a UI that got the frames without them (`deferred`): as many as fit in one answer (onDemand.ts). */
  'frames.payloads': ConnectionRef.extend({ seqs: Seqs }),
  /** Log lines' texts, for a UI that got the lines without them (a backlog's rows): as many as fit in one answer (onDemand.ts). */
  'logs.texts': ConnectionRef.extend({ seqs: Seqs }),
} as const

export interface EventOutputs {
  'events.since': EngineEvent[]
  'events.backlog': BacklogPage
  'frames.export': { text: string; bytes: number }
  'frames.rows': { from: number; rows: FrameRows }
  'logs.rows': { from: number; rows: LogRows }
  /** `frames`: how many of the connection's frames the matches were counted among (those after them are the asker's to judge). */
  'frames.find': { total: number; frames: number; positions: number[]; rows: FrameRows }
  'frames.locate': { positions: number[] }
  'frames.payloads': { payloads: unknown[] }
  'logs.texts': { texts: string[] }
}
