import { z } from 'zod'
import type { LatencyRow, TimelineView } from '../timeline'
import { ConnectionRef } from './refs'

/** A range of a session's time (epoch ms); absent ends: the session's own. */
const Range = { from: z.number().optional(), to: z.number().optional() }

export const timelineInputs = {
  /**
   * A connection's session on the time axis, for the range a view shows: each lane's spans, or its density in
   * `bins` equal bins where it holds more than MAX_SPANS_PER_LANE. Read from the session store: the work is
   * bounded by what the range holds and the number of bins, never by the session's length.
   */
  'timeline.view': ConnectionRef.extend({ ...Range, bins: z.number().int().min(1).max(8_000).default(1_000) }),
  /** Latency per method (and tool or skill) over a range: p50, p95, max and a histogram. */
  'timeline.latency': ConnectionRef.extend(Range),
} as const

export interface TimelineOutputs {
  'timeline.view': TimelineView
  'timeline.latency': { rows: LatencyRow[] }
}
