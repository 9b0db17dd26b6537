import { closeSync, fstatSync, openSync } from 'node:fs'
import { AppendFile, readAt } from './appendFile'

/**
 * One lane of a session's time axis on disk (`spans/<lane>.idx`): a fixed 64-byte record a span, appended as
 * each span closes, so records lie in the order of `at` (when the span ended, or was written still open) and a
 * time is a binary search away. Beside it, `spans/<lane>.blocks` says, for each block of `BLOCK` records, the
 * first record's `at` and the earliest `start` of the block; and memory holds the same for each group of
 * `GROUP` blocks (16 bytes per 4,096 spans: 40 KB at ten million). A time is found by a search of the groups
 * in memory, one read of its group's block summaries and one of its block; the spans still running across a
 * time (begun before it, ended after) are in the groups and blocks whose earliest start is before it.
 *
 *   0 at f64 · 8 start f64 · 16 end f64 (NaN: still open) · 24 seq f64 · 32 endSeq f64 (NaN: none)
 *   40 errorsBefore f64 (failed spans of the lane before this one) · 48 extra offset f64 · 56 extra length u32
 *   60 label u16 · 62 outcome u8
 */
export const SPAN_BYTES = 64
export const BLOCK = 64
export const GROUP = 64
const SUMMARY_BYTES = 16

export const OUTCOMES = ['ok', 'error', 'pending', 'cancelled'] as const
export type Outcome = (typeof OUTCOMES)[number]

export interface SpanRecord {
  at: number
  start: number
  end: number
  seq: number
  endSeq: number
  errorsBefore: number
  extraOffset: number
  extraLength: number
  label: number
  outcome: Outcome
}

/** Reads made of span lanes, and the records they read: what a view costs, counted (for tests and the bench). */
export const spanReads = { reads: 0, records: 0 }

/** A block summary: each block's first `at` and earliest `start`. */
export interface BlockSummaries {
  firstAt: number[]
  minStart: number[]
}

/** A lane's records, written or being written, and the summaries of their groups (in memory) and blocks (read when needed). */
export interface SpanLane {
  readonly count: number
  /** Failed spans in the whole lane. */
  readonly errors: number
  records(from: number, count: number): SpanRecord[]
  /** Records `from` … as they lie (64 bytes each), for reading a field or two without decoding the rest. */
  raw(from: number, count: number): Buffer
  readonly groups: number
  readonly groupFirstAt: Float64Array
  readonly groupMinStart: Float64Array
  /** The summaries of group `group`'s blocks. */
  blocksOf(group: number): BlockSummaries
}

/** Arrays of group summaries, grown by doubling. */
class GroupSummaries {
  firstAt = new Float64Array(16)
  minStart = new Float64Array(16)
  count = 0

  push(firstAt: number, minStart: number): void {
    if (this.count === this.firstAt.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2)
        b.set(a)
        return b
      }
      this.firstAt = grow(this.firstAt)
      this.minStart = grow(this.minStart)
    }
    this.firstAt[this.count] = firstAt
    this.minStart[this.count] = minStart
    this.count++
  }

  lower(start: number): void {
    if (start < this.minStart[this.count - 1]) this.minStart[this.count - 1] = start
  }
}

function decodeSummaries(bytes: Buffer): BlockSummaries {
  const out: BlockSummaries = { firstAt: [], minStart: [] }
  for (let o = 0; o + SUMMARY_BYTES <= bytes.length; o += SUMMARY_BYTES) {
    out.firstAt.push(bytes.readDoubleLE(o))
    out.minStart.push(bytes.readDoubleLE(o + 8))
  }
  return out
}

/** A lane being written (a live session's): records filled into a chunk, handed to the file with the session's batches. */
export class SpanLaneWriter implements SpanLane {
  private readonly file: AppendFile
  private readonly blockFile: AppendFile
  private chunk = Buffer.allocUnsafe(CHUNK_SPANS * SPAN_BYTES)
  private filled = 0
  count = 0
  errors = 0
  private lastAt = -Infinity
  private readonly summaries = new GroupSummaries()
  /** The block being filled: its first `at` and earliest start (written to the blocks file once it is whole). */
  private block = { firstAt: 0, minStart: 0 }

  constructor(path: string) {
    this.file = new AppendFile(`${path}.idx`)
    this.blockFile = new AppendFile(`${path}.blocks`)
  }

  get groups(): number {
    return this.summaries.count
  }

  get groupFirstAt(): Float64Array {
    return this.summaries.firstAt
  }

  get groupMinStart(): Float64Array {
    return this.summaries.minStart
  }

  add(span: Omit<SpanRecord, 'errorsBefore'>): void {
    const at = Math.max(span.at, this.lastAt) // kept in order whatever a producer stamped
    this.lastAt = at
    if (this.count % BLOCK === 0) {
      this.block = { firstAt: at, minStart: span.start }
      if (this.count % (BLOCK * GROUP) === 0) this.summaries.push(at, span.start)
    } else this.block.minStart = Math.min(this.block.minStart, span.start)
    this.summaries.lower(span.start)
    const chunk = this.chunk
    const o = this.filled
    chunk.writeDoubleLE(at, o)
    chunk.writeDoubleLE(span.start, o + 8)
    chunk.writeDoubleLE(span.end, o + 16)
    chunk.writeDoubleLE(span.seq, o + 24)
    chunk.writeDoubleLE(span.endSeq, o + 32)
    chunk.writeDoubleLE(this.errors, o + 40)
    chunk.writeDoubleLE(span.extraOffset, o + 48)
    chunk.writeUInt32LE(span.extraLength, o + 56)
    chunk.writeUInt16LE(span.label, o + 60)
    chunk.writeUInt8(OUTCOMES.indexOf(span.outcome), o + 62)
    chunk.writeUInt8(0, o + 63)
    this.filled = o + SPAN_BYTES
    this.count++
    if (span.outcome === 'error') this.errors++
    if (this.count % BLOCK === 0) {
      const summary = Buffer.allocUnsafe(SUMMARY_BYTES)
      summary.writeDoubleLE(this.block.firstAt, 0)
      summary.writeDoubleLE(this.block.minStart, 8)
      this.blockFile.append(summary)
    }
    if (this.filled === chunk.length) this.seal()
  }

  records(from: number, count: number): SpanRecord[] {
    return decode(this.raw(from, count))
  }

  raw(from: number, count: number): Buffer {
    const n = Math.min(count, this.count - from)
    if (n <= 0) return Buffer.alloc(0)
    this.seal()
    counted(n)
    return this.file.read(from * SPAN_BYTES, n * SPAN_BYTES)
  }

  blocksOf(group: number): BlockSummaries {
    const whole = Math.floor(this.count / BLOCK)
    const first = group * GROUP
    const n = Math.max(0, Math.min(GROUP, whole - first))
    spanReads.reads++
    const out = n ? decodeSummaries(this.blockFile.read(first * SUMMARY_BYTES, n * SUMMARY_BYTES)) : { firstAt: [], minStart: [] }
    // The block being filled, when it is this group's.
    if (this.count % BLOCK && Math.floor(whole / GROUP) === group) {
      out.firstAt.push(this.block.firstAt)
      out.minStart.push(this.block.minStart)
    }
    return out
  }

  flush(): void {
    this.seal()
    this.file.flush()
    this.blockFile.flush()
  }

  close(): void {
    this.seal()
    this.file.close()
    this.blockFile.close()
  }

  get error(): string | undefined {
    return this.file.error ?? this.blockFile.error
  }

  /** Hands the records filled so far to the file (which writes them with its next batch). */
  private seal(): void {
    if (this.filled === 0) return
    const whole = this.filled === this.chunk.length
    this.file.append(whole ? this.chunk : Buffer.from(this.chunk.subarray(0, this.filled)))
    if (whole) this.chunk = Buffer.allocUnsafe(CHUNK_SPANS * SPAN_BYTES)
    this.filled = 0
  }
}

/** Records filled in memory before they are handed to the file: 64 KB. */
const CHUNK_SPANS = 1024

/** A lane of a past session, read where it lies. */
export class SpanLaneReader implements SpanLane {
  readonly count: number
  readonly errors: number
  private readonly summaries = new GroupSummaries()
  private readonly fd: number | undefined
  private readonly blocksFd: number | undefined
  /** The last block when it is not whole (its summary is not in the blocks file). */
  private readonly partial: { firstAt: number; minStart: number } | undefined

  constructor(path: string) {
    const open = (name: string) => {
      try {
        return openSync(name, 'r')
      } catch {
        return undefined
      }
    }
    this.fd = open(`${path}.idx`)
    this.blocksFd = open(`${path}.blocks`)
    this.count = this.fd === undefined ? 0 : Math.floor(fstatSync(this.fd).size / SPAN_BYTES)
    const whole = Math.floor(this.count / BLOCK)
    // The groups' summaries, from the blocks file a group at a time.
    for (let group = 0; group * GROUP < whole; group++) {
      const { firstAt, minStart } = this.wholeBlocksOf(group, whole)
      if (!firstAt.length) break
      this.summaries.push(firstAt[0], Math.min(...minStart))
    }
    if (this.count > whole * BLOCK) {
      const tail = this.records(whole * BLOCK, BLOCK)
      this.partial = { firstAt: tail[0].at, minStart: Math.min(...tail.map((r) => r.start)) }
      if (whole % GROUP === 0) this.summaries.push(this.partial.firstAt, this.partial.minStart)
      else this.summaries.lower(this.partial.minStart)
    }
    const last = this.count ? this.records(this.count - 1, 1)[0] : undefined
    this.errors = last ? last.errorsBefore + (last.outcome === 'error' ? 1 : 0) : 0
  }

  get groups(): number {
    return this.summaries.count
  }

  get groupFirstAt(): Float64Array {
    return this.summaries.firstAt
  }

  get groupMinStart(): Float64Array {
    return this.summaries.minStart
  }

  records(from: number, count: number): SpanRecord[] {
    return decode(this.raw(from, count))
  }

  raw(from: number, count: number): Buffer {
    const n = Math.min(count, this.count - from)
    if (n <= 0 || this.fd === undefined) return Buffer.alloc(0)
    counted(n)
    return readAt(this.fd, from * SPAN_BYTES, n * SPAN_BYTES)
  }

  blocksOf(group: number): BlockSummaries {
    const whole = Math.floor(this.count / BLOCK)
    const out = this.wholeBlocksOf(group, whole)
    if (this.partial && Math.floor(whole / GROUP) === group) {
      out.firstAt.push(this.partial.firstAt)
      out.minStart.push(this.partial.minStart)
    }
    return out
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    if (this.blocksFd !== undefined) closeSync(this.blocksFd)
  }

  private wholeBlocksOf(group: number, whole: number): BlockSummaries {
    const n = Math.max(0, Math.min(GROUP, whole - group * GROUP))
    if (!n || this.blocksFd === undefined) return { firstAt: [], minStart: [] }
    spanReads.reads++
    return decodeSummaries(readAt(this.blocksFd, group * GROUP * SUMMARY_BYTES, n * SUMMARY_BYTES))
  }
}

function decode(bytes: Buffer): SpanRecord[] {
  const out: SpanRecord[] = []
  for (let o = 0; o + SPAN_BYTES <= bytes.length; o += SPAN_BYTES)
    out.push({
      at: bytes.readDoubleLE(o),
      start: bytes.readDoubleLE(o + 8),
      end: bytes.readDoubleLE(o + 16),
      seq: bytes.readDoubleLE(o + 24),
      endSeq: bytes.readDoubleLE(o + 32),
      errorsBefore: bytes.readDoubleLE(o + 40),
      extraOffset: bytes.readDoubleLE(o + 48),
      extraLength: bytes.readUInt32LE(o + 56),
      label: bytes.readUInt16LE(o + 60),
      outcome: OUTCOMES[bytes.readUInt8(o + 62)] ?? 'ok',
    })
  return out
}

function counted(records: number): void {
  spanReads.reads++
  spanReads.records += records
}

/** Where a time falls in a lane: how many records lie before it, and how many of those failed. */
export interface LanePosition {
  position: number
  errorsBefore: number
}

/**
 * Where `t` falls in `lane`: the first record whose `at` is at least `t` (or above it, `after`), and the failed
 * spans before it. A binary search of the groups in memory, then one read of the group's block summaries and
 * one of the block (what was read last is kept in `cache`: positions asked in order often fall in it).
 */
export function positionOf(lane: SpanLane, t: number, after = false, cache: PositionCache = newPositionCache()): LanePosition {
  const before = (at: number) => (after ? at <= t : at < t)
  const group = lastBefore(lane.groups, (g) => before(lane.groupFirstAt[g]))
  if (group < 0) return { position: 0, errorsBefore: 0 }
  if (cache.group !== group) Object.assign(cache, { group, summaries: lane.blocksOf(group), block: -1 })
  const block = group * GROUP + lastBefore(cache.summaries.firstAt.length, (b) => before(cache.summaries.firstAt[b]))
  if (cache.block !== block) Object.assign(cache, { block, bytes: lane.raw(block * BLOCK, BLOCK) })
  const bytes = cache.bytes
  const n = bytes.length / SPAN_BYTES
  let at = 0
  while (at < n && before(bytes.readDoubleLE(at * SPAN_BYTES))) at++
  const last = (at - 1) * SPAN_BYTES
  const errorsBefore =
    at < n
      ? bytes.readDoubleLE(at * SPAN_BYTES + 40)
      : bytes.readDoubleLE(last + 40) + (OUTCOMES[bytes.readUInt8(last + 62)] === 'error' ? 1 : 0)
  return { position: block * BLOCK + at, errorsBefore }
}

/** What `positionOf` read last. */
export interface PositionCache {
  group: number
  summaries: BlockSummaries
  block: number
  bytes: Buffer
}

export function newPositionCache(): PositionCache {
  return { group: -1, summaries: { firstAt: [], minStart: [] }, block: -1, bytes: Buffer.alloc(0) }
}

/** The last of `0 … n - 1` for which `test` holds, where it holds for a prefix (-1 when for none). */
function lastBefore(n: number, test: (i: number) => boolean): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (test(mid)) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}
