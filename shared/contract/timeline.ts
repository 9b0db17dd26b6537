/**
 * A session on a time axis (DESIGN, "Time is an axis"): lanes of spans — a request from its send to its answer,
 * a task for its life, a stream while it is open, an authorization step, a keepalive probe — and ticks for what
 * has no length (notifications). The engine answers for a visible range: the spans in it, or, where a lane holds
 * too many to draw one by one, how many there are per bin (`density`). Nothing here grows with the session:
 * a view asks again for the range it shows.
 */

/** The lanes, in the order they are drawn; the set a session has follows its protocol and what it did. */
export const TIMELINE_LANES = [
  'requests', // the client's requests (Parallax's, or the host's on an observed connection): send → answer
  'server-requests', // what the server asks its client: sampling, elicitation, roots, ACP permissions, files, terminals
  'notifications', // ticks; progress as a span that fills
  'tasks', // MCP tasks and A2A tasks, for their whole life, their states marked
  'streams', // A2A SSE streams, MCP GET and subscription streams: open → closed, their events marked
  'auth', // each step of an authorization flow
  'keepalive', // probes
  'app', // MCP App view messages
  'errors', // every error, of any lane, marked
] as const
export type TimelineLaneId = (typeof TIMELINE_LANES)[number]

export type SpanOutcome = 'ok' | 'error' | 'pending' | 'cancelled'

export interface TimelineSpan {
  /** Epoch ms, sub-millisecond where the platform gave it. */
  start: number
  /** Absent while it is still open (a request not yet answered, a stream still running). */
  end?: number
  /** What it is, as a person reads it: `tools/call get_products`, `ping`, `task t-12`. */
  label: string
  outcome: SpanOutcome
  /** The event that began it (a request's frame), and the one that ended it: what a click opens. */
  seq: number
  endSeq?: number
  /** What happened inside it: a task's states, a stream's events, progress reports (`fill` 0..1). */
  marks?: { ts: number; label: string; seq?: number; fill?: number }[]
}

export interface TimelineLane {
  id: TimelineLaneId
  /** Spans in the asked range, when there are few enough to draw each. */
  spans?: TimelineSpan[]
  /** Otherwise: the range cut into `counts.length` equal bins, how many spans end (ticks fall) in each, and how many of them failed. */
  density?: { counts: number[]; errors: number[] }
  /** How many the lane holds in the range either way. */
  total: number
}

/** The answer to `timeline.view`: the session's whole extent (for the overview and zooming out), and each lane in the range. */
export interface TimelineView {
  extent: { start: number; end: number }
  range: { from: number; to: number }
  lanes: TimelineLane[]
}

/** Latency at a glance: per method (and tool or skill), over a range. */
export interface LatencyRow {
  method: string
  subject?: string
  count: number
  errors: number
  p50: number
  p95: number
  max: number
  /** Counts per bucket; bucket i holds latencies in [edges[i], edges[i + 1]) ms. */
  histogram: { edges: number[]; counts: number[] }
}

/** Most spans a lane returns before it answers with density instead. */
export const MAX_SPANS_PER_LANE = 4_000
