import { closeSync, fstatSync, openSync } from 'node:fs'
import { AppendFile, readAt } from './appendFile'

/**
 * One lane of a session's time axis on disk (`spans/<lane>.idx`): a fixed 64-byte record a span, appended as
 * each span closes, so records lie in the order of `at` (when the span ended, or was written still open) and a
 * time is a binary search away. Beside it, `spans/<lane>.blocks` says, for each block of `BLOCK` records, the
 * first record's `at` and the earliest `start` of the block: held in memory (16 bytes per 64 spans), it turns a
 * search for a time into one read of a block, and tells which later blocks hold a span that began before a time
 * (one still running across the edge of a range).
 *
 *   0 at f64 · 8 start f64 · 16 end f64 (NaN: still open) · 24 seq f64 · 32 endSeq f64 (NaN: none)
 *   40 errorsBefore f64 (failed spans of the lane before this one) · 48 extra offset f64 · 56 extra length u32
 *   60 label u16 · 62 outcome u8
 */
export const SPAN_BYTES = 64
export const BLOCK = 64
const BLOCK_BYTES = 16

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

/** Reads made of span lanes, and records they decoded: what a view costs, counted (for tests and the bench). */
export const spanReads = { reads: 0, records: 0 }

/** A lane's records, written or being written, and the summary of their blocks. */
export interface SpanLane {
  readonly count: number
  /** Failed spans in the whole lane. */
  readonly errors: number
  records(from: number, count: number): SpanRecord[]
  /** Each whole block's first `at` and earliest `start` (a last partial block is read when needed). */
  readonly firstAt: Float64Array
  readonly minStart: Float64Array
  readonly blocks: number
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
  firstAt = new Float64Array(64)
  minStart = new Float64Array(64)
  blocks = 0

  constructor(path: string) {
    this.file = new AppendFile(`${path}.idx`)
    this.blockFile = new AppendFile(`${path}.blocks`)
  }

  add(span: Omit<SpanRecord, 'errorsBefore'>): void {
    const at = Math.max(span.at, this.lastAt) // kept in order whatever a producer stamped
    this.lastAt = at
    if (this.count % BLOCK === 0) this.beginBlock(at, span.start)
    else this.minStart[this.blocks - 1] = Math.min(this.minStart[this.blocks - 1], span.start)
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
      const summary = Buffer.allocUnsafe(BLOCK_BYTES)
      summary.writeDoubleLE(this.firstAt[this.blocks - 1], 0)
      summary.writeDoubleLE(this.minStart[this.blocks - 1], 8)
      this.blockFile.append(summary)
    }
    if (this.filled === chunk.length) this.seal()
  }

  records(from: number, count: number): SpanRecord[] {
    const n = Math.min(count, this.count - from)
    if (n <= 0) return []
    this.seal()
    spanReads.reads++
    return decode(this.file.read(from * SPAN_BYTES, n * SPAN_BYTES))
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

  /** A new block begins (the arrays of block summaries grow by doubling). */
  private beginBlock(at: number, start: number): void {
    if (this.blocks === this.firstAt.length) {
      const grow = (a: Float64Array) => {
        const b = new Float64Array(a.length * 2)
        b.set(a)
        return b
      }
      this.firstAt = grow(this.firstAt)
      this.minStart = grow(this.minStart)
    }
    this.firstAt[this.blocks] = at
    this.minStart[this.blocks] = start
    this.blocks++
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
  readonly firstAt: Float64Array
  readonly minStart: Float64Array
  readonly blocks: number
  private readonly fd: number | undefined

  constructor(path: string) {
    let fd: number | undefined
    try {
      fd = openSync(`${path}.idx`, 'r')
    } catch {
      fd = undefined
    }
    this.fd = fd
    this.count = fd === undefined ? 0 : Math.floor(fstatSync(fd).size / SPAN_BYTES)
    const whole = Math.floor(this.count / BLOCK)
    let summary: Buffer = Buffer.alloc(0)
    try {
      const bfd = openSync(`${path}.blocks`, 'r')
      try {
        summary = readAt(bfd, 0, whole * BLOCK_BYTES)
      } finally {
        closeSync(bfd)
      }
    } catch {
      // no whole block
    }
    const partial = this.count > whole * BLOCK ? 1 : 0
    this.blocks = whole + partial
    this.firstAt = new Float64Array(this.blocks)
    this.minStart = new Float64Array(this.blocks)
    for (let b = 0; b < whole; b++) {
      this.firstAt[b] = summary.readDoubleLE(b * BLOCK_BYTES)
      this.minStart[b] = summary.readDoubleLE(b * BLOCK_BYTES + 8)
    }
    if (partial) {
      const tail = this.records(whole * BLOCK, BLOCK)
      this.firstAt[whole] = tail[0].at
      this.minStart[whole] = Math.min(...tail.map((r) => r.start))
    }
    const last = this.count ? this.records(this.count - 1, 1)[0] : undefined
    this.errors = last ? last.errorsBefore + (last.outcome === 'error' ? 1 : 0) : 0
  }

  records(from: number, count: number): SpanRecord[] {
    const n = Math.min(count, this.count - from)
    if (n <= 0 || this.fd === undefined) return []
    spanReads.reads++
    return decode(readAt(this.fd, from * SPAN_BYTES, n * SPAN_BYTES))
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
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
  spanReads.records += out.length
  return out
}

/** Where a time falls in a lane: how many records lie before it, and how many of those failed. */
export interface LanePosition {
  position: number
  errorsBefore: number
}

/**
 * Where `t` falls in `lane`: the first record whose `at` is at least `t` (or above it, `after`), and the failed
 * spans before it. A binary search of the blocks held in memory, then one read of the block it falls in (the
 * last block read is kept: positions asked in order often fall in it).
 */
export function positionOf(lane: SpanLane, t: number, after = false, cache?: { block: number; records: SpanRecord[] }): LanePosition {
  const before = (at: number) => (after ? at <= t : at < t)
  let lo = 0
  let hi = lane.blocks
  // The first block whose first record is not before t: the position lies in the block before it.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (before(lane.firstAt[mid])) lo = mid + 1
    else hi = mid
  }
  if (lo === 0) return { position: 0, errorsBefore: 0 }
  const block = lo - 1
  let records: SpanRecord[]
  if (cache?.block === block) records = cache.records
  else {
    records = lane.records(block * BLOCK, BLOCK)
    if (cache) Object.assign(cache, { block, records })
  }
  let at = 0
  while (at < records.length && before(records[at].at)) at++
  const errorsBefore =
    at < records.length ? records[at].errorsBefore : records[at - 1].errorsBefore + (records[at - 1].outcome === 'error' ? 1 : 0)
  return { position: block * BLOCK + at, errorsBefore }
}
