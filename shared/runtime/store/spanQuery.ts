import {
  MAX_SPANS_PER_LANE,
  TIMELINE_LANES,
  type LatencyRow,
  type TimelineLane,
  type TimelineLaneId,
  type TimelineSpan,
} from '../../contract'
import type { BuiltSpan } from './spanBuilder'
import { LABEL_IN_EXTRA, type SpanIndex } from './spanIndex'
import { BLOCK, GROUP, newPositionCache, positionOf, type SpanLane, type SpanRecord } from './spanLanes'

/**
 * Each lane of a session's spans in `[from, to]` (the spans, or their density in `bins` bins where there are
 * more than MAX_SPANS_PER_LANE). A lane's records lie in the order they ended, so the spans that ended in the
 * range are the records between two positions (two binary searches); those still running at its right edge
 * are in the groups and blocks after it whose earliest start is within the range. Density is a position per
 * bin edge: two reads per bin and lane at most, whatever the session's length. Lanes the session never had are left out.
 */
export function laneViews(index: SpanIndex, from: number, to: number, bins: number): TimelineLane[] {
  const open = index.open()
  const lanes: TimelineLane[] = []
  for (const id of TIMELINE_LANES) {
    const lane = index.lane(id)
    const running = open.filter((s) => s.lane === id)
    if (!lane?.count && !running.length) continue
    lanes.push(laneView(index, id, lane, running, from, to, bins))
  }
  return lanes
}

function laneView(
  index: SpanIndex,
  id: TimelineLaneId,
  lane: SpanLane | undefined,
  running: BuiltSpan[],
  from: number,
  to: number,
  bins: number,
): TimelineLane {
  const live = running.filter((s) => s.start <= to)
  if (!lane?.count) return { id, spans: live.map(spanOfBuilt), total: live.length }
  const cache = newPositionCache()
  const first = positionOf(lane, from, false, cache)
  const last = positionOf(lane, to, true, cache)
  const ended = last.position - first.position
  if (ended + live.length > MAX_SPANS_PER_LANE) {
    const counts = new Array<number>(bins).fill(0)
    const errors = new Array<number>(bins).fill(0)
    const width = (to - from) / bins
    let previous = first
    for (let i = 0; i < bins; i++) {
      const next = i === bins - 1 ? last : positionOf(lane, from + width * (i + 1), false, cache)
      counts[i] = next.position - previous.position
      errors[i] = next.errorsBefore - previous.errorsBefore
      previous = next
    }
    for (const span of live) counts[binOf(span.start, from, width, bins)]++
    return { id, density: { counts, errors }, total: ended + live.length }
  }
  const records = lane.records(first.position, ended)
  const crossing = spansAcross(lane, last.position, to, MAX_SPANS_PER_LANE - ended - live.length)
  const spans = [...records, ...crossing].map((r) => spanOfRecord(index, r))
  spans.push(...live.map(spanOfBuilt))
  spans.sort((a, b) => a.start - b.start || a.seq - b.seq)
  return { id, spans, total: spans.length }
}

/** Records after `position` that began by `to` (still running at the range's right edge), at most `limit`: only the groups and blocks whose earliest start is by `to` are read. */
function spansAcross(lane: SpanLane, position: number, to: number, limit: number): SpanRecord[] {
  const out: SpanRecord[] = []
  const firstBlock = Math.floor(position / BLOCK)
  for (let group = Math.floor(firstBlock / GROUP); group < lane.groups && out.length < limit; group++) {
    if (lane.groupMinStart[group] > to) continue
    const { minStart } = lane.blocksOf(group)
    for (let b = 0; b < minStart.length && out.length < limit; b++) {
      const block = group * GROUP + b
      if (block < firstBlock || minStart[b] > to) continue
      for (const [i, r] of lane.records(block * BLOCK, BLOCK).entries())
        if (block * BLOCK + i >= position && r.start <= to && out.length < limit) out.push(r)
    }
  }
  return out
}

function binOf(t: number, from: number, width: number, bins: number): number {
  return width > 0 ? Math.max(0, Math.min(bins - 1, Math.floor((t - from) / width))) : 0
}

function spanOfRecord(index: SpanIndex, r: SpanRecord): TimelineSpan {
  const extra = r.extraLength ? index.extra(r) : {}
  const marks = extra.marks && (extra.more ? [...extra.marks, { ts: extra.marks.at(-1)!.ts, label: `… ${extra.more} more` }] : extra.marks)
  return {
    start: r.start,
    ...(Number.isFinite(r.end) && { end: r.end }),
    label: r.label === LABEL_IN_EXTRA ? (extra.label ?? '') : index.label(r.label),
    outcome: r.outcome,
    seq: r.seq,
    ...(Number.isFinite(r.endSeq) && { endSeq: r.endSeq }),
    ...(marks && { marks }),
  }
}

function spanOfBuilt(s: BuiltSpan): TimelineSpan {
  return {
    start: s.start,
    label: s.label,
    outcome: s.outcome,
    seq: s.seq,
    ...(s.marks?.length && { marks: s.marks.map((m) => ({ ...m })) }),
  }
}

/** Spans read for latency at most: a range holding more is sampled evenly, a block at a time. */
export const LATENCY_SAMPLE = 20_000
/** Latency histogram edges (ms), log-spaced; a row's histogram spans the edges its latencies fall between. */
const EDGES = [0, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000, 3_600_000, 86_400_000]

/**
 * Latency per method (and tool or skill) of the requests each way that ended in `[from, to]`: p50, p95, max and
 * a histogram. A range holding more than LATENCY_SAMPLE answered requests is sampled (every k-th block of the
 * lane), its counts scaled by k: the cost is bounded by the sample, not the session.
 */
export function latencyRows(index: SpanIndex, from: number, to: number): LatencyRow[] {
  const byLabel = new Map<string, { durations: number[]; errors: number; weight: number }>()
  for (const id of ['requests', 'server-requests'] as const) {
    const lane = index.lane(id)
    if (!lane?.count) continue
    const first = positionOf(lane, from).position
    const last = positionOf(lane, to, true).position
    const stride = Math.max(1, Math.ceil((last - first) / LATENCY_SAMPLE))
    for (let at = first; at < last; at += BLOCK * stride) {
      for (const r of lane.records(at, Math.min(BLOCK, last - at))) {
        if (!Number.isFinite(r.end) || !Number.isFinite(r.endSeq)) continue
        const label = r.label === LABEL_IN_EXTRA ? (index.extra(r).label ?? '') : index.label(r.label)
        let row = byLabel.get(label)
        if (!row) byLabel.set(label, (row = { durations: [], errors: 0, weight: stride }))
        row.durations.push(r.end - r.start)
        if (r.outcome === 'error') row.errors++
      }
    }
  }
  const rows: LatencyRow[] = []
  for (const [label, { durations, errors, weight }] of byLabel) {
    durations.sort((a, b) => a - b)
    const space = label.indexOf(' ')
    const quantile = (q: number) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]
    rows.push({
      method: space === -1 ? label : label.slice(0, space),
      ...(space !== -1 && { subject: label.slice(space + 1) }),
      count: durations.length * weight,
      errors: errors * weight,
      p50: quantile(0.5),
      p95: quantile(0.95),
      max: durations.at(-1)!,
      histogram: histogramOf(durations),
    })
  }
  return rows.sort((a, b) => b.count - a.count || a.method.localeCompare(b.method))
}

function histogramOf(sorted: number[]): LatencyRow['histogram'] {
  const bucket = (ms: number) =>
    Math.max(
      0,
      EDGES.findLastIndex((edge) => edge <= ms),
    )
  const low = bucket(sorted[0])
  const high = Math.min(EDGES.length - 2, bucket(sorted.at(-1)!))
  const edges = EDGES.slice(low, high + 2)
  const counts = new Array<number>(edges.length - 1).fill(0)
  for (const ms of sorted) counts[Math.min(counts.length - 1, bucket(ms) - low)]++
  return { edges, counts }
}
