import { z } from 'zod'
import type { BacklogPage } from '../backlog'
import type { ListedSession } from '../sessions'
import { ConnectionRef } from './refs'

const SessionId = z.string().regex(/^\d{8}T\d{6}Z-\d+-\d+$/, 'a session id (as sessions.list gives it)')

/**
 * Sessions: every connection's whole life, kept on disk as it happens (runtime/store). Listed per target, read
 * back read-only as `session:<id>` (the same commands as a live connection's frames and log lines take),
 * saved as a recording (whole or a time range), deleted; the folder kept within a size the user sets.
 */
export const sessionInputs = {
  /** Every session kept (newest first), or a target's. */
  'sessions.list': z.object({ targetId: z.string().max(300).optional() }),
  /**
   * A session as a UI opens it, page by page as `events.backlog` gives a run: its events but frames and log
   * lines whole, and its latest frames and log lines as rows, everything under the connection id `session:<id>`.
   */
  'sessions.backlog': z.object({ sessionId: SessionId, afterSeq: z.number().int().min(0), limit: z.number().int().min(1).optional() }),
  /**
   * Saves a session (or the part between two times, epoch ms) as a recording: into the library under `name`, or,
   * for a host whose user names a file (the CLI), into `path`.
   */
  'sessions.export': z.object({
    sessionId: SessionId,
    name: z.string().min(1).max(200).optional(),
    path: z.string().min(1).max(4096).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
  }),
  'sessions.delete': z.object({ sessionId: SessionId }),
  /** How much the sessions folder may hold, and holds now. */
  'sessions.retention': z.object({}),
  'sessions.setRetention': z.object({
    bytes: z
      .number()
      .int()
      .min(16 * 1024 ** 2)
      .max(1024 ** 4),
  }),
  /**
   * Finds a text in a connection's (or a past session's) frames and log lines, scanning forward from position
   * `from` of its events for at most `budgetMs`: the hits so far, and where to go on (a UI asks again until `done`,
   * showing how far it got).
   */
  'sessions.search': ConnectionRef.extend({
    text: z.string().min(1).max(1000),
    from: z.number().int().min(0),
    budgetMs: z.number().int().min(10).max(5000).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
} as const

export interface SessionSearchHit {
  seq: number
  kind: 'frame' | 'log' | 'other'
  /** Its position among the connection's frames or log lines (for a frame or a log line). */
  position?: number
  ts: number
}

export interface SessionOutputs {
  'sessions.list': ListedSession[]
  'sessions.backlog': BacklogPage
  'sessions.export': { name?: string; path?: string; events: number }
  'sessions.delete': { deleted: true }
  'sessions.retention': { bytes: number; used: number }
  'sessions.setRetention': { bytes: number; used: number; removed: string[] }
  'sessions.search': { hits: SessionSearchHit[]; next: number; total: number; done: boolean }
}
