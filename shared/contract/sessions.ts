import type { ConnectionOwner, Protocol, TransportKind } from './events'

/**
 * A session: one connection's whole life, kept on disk as it happens (every event, redacted), so it outlives
 * the app and reopens read-only. Its id is its folder's name in the data folder's `sessions/`, unique across
 * runs (a connection's id is unique only within one).
 */
export interface SessionSummary {
  id: string
  /** The connection's id in the run that made it. */
  connectionId: string
  targetId: string
  targetName: string
  protocol?: Protocol
  transport?: TransportKind
  owner?: ConnectionOwner
  /** Which host ran it: the desktop app, the web host, the CLI, a tap. */
  host: string
  startedAt: number
  lastEventAt: number
  /** Set once it ended; a session without it is still running, or was cut short (`ended: 'cut-short'` once found so). */
  endedAt?: number
  /** How it ended: closed, failed (with `reason`), or cut short (Parallax stopped without closing it: a crash, a kill). */
  ended?: 'closed' | 'failed' | 'cut-short'
  reason?: string
  events: number
  frames: number
  logs: number
  /** Its size on disk. */
  bytes: number
  /** The process writing it, while it runs (its pid and when that process started), to tell a running session from one cut short. */
  writer?: { pid: number; start?: string }
}

/** A session as listed: its summary, and whether it is running now (in this engine). */
export interface ListedSession extends SessionSummary {
  running: boolean
}

/** How much the sessions folder may hold: the oldest finished sessions go first, never a running one. */
export const DEFAULT_RETENTION_BYTES = 4 * 1024 ** 3
