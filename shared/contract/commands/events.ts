import { z } from 'zod'
import type { BacklogPage } from '../backlog'
import type { EngineEvent } from '../events'
import { SEQS_PER_REQUEST } from '../onDemand'
import { ConnectionRef } from './refs'

const Seqs = z.array(z.number().int().min(1)).min(1).max(SEQS_PER_REQUEST)

/** The event log as a UI catches up on it (what it does not show at once left behind), and that on demand: frames' payloads, log lines' texts. */
export const eventInputs = {
  /** Every event after `afterSeq`, at most `limit` of them, each as a UI receives it live. */
  'events.since': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
  /**
   * The backlog a UI needs when it (re)attaches, packed (see backlog.ts): the events numbered `afterSeq + 1`
   * to `afterSeq + limit` (events are numbered 1, 2, 3, …), so a UI catching up on a long session may ask
   * for the next page before this one arrives.
   */
  'events.backlog': z.object({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
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
  'frames.payloads': { payloads: unknown[] }
  'logs.texts': { texts: string[] }
}
