import { framesFilterTest, type FrameEvent, type FramesFilter } from '../../contract'
import { UNKEYED, type FrameKey } from './keyTable'
import { firstRecordAbove, type IndexSource } from './sessionIndex'
import type { SessionFiles } from './sessionFiles'

/** Positions in a block: the matches before each block are counted, so the k-th match is a binary search and a short scan away. */
const BLOCK = 4096
/** Keys read from the column at once while scanning. */
const SCAN = 1 << 20

/**
 * Which of a session's frames a filter lets through, as one bit a frame, scanned from the frames' key column
 * (each key judged once) and extended as frames come; the matches are counted per block of 4096 frames, so
 * `positionOf(k)` — the k-th match's position — costs a binary search and a scan of one block. Ten million
 * frames take 1.25 MB of bits and 10 KB of counts.
 */
export class FrameMatches {
  private bits = new Uint8Array(BLOCK / 8)
  /** Matches before each block. */
  private before = new Uint32Array(16)
  /** How many of the session's frames have been judged (the matches are among these). */
  scanned = 0
  total = 0
  private readonly test: (frame: Parameters<ReturnType<typeof framesFilterTest>>[0]) => boolean
  private readonly byKey = new Map<number, boolean>()
  /** The filter's range of time, if it has one: judged by position, a frame's key says nothing of its time. */
  private readonly time: { from: number; to: number } | undefined

  constructor(
    readonly files: SessionFiles,
    readonly filter: FramesFilter,
  ) {
    const { from, to, ...rest } = filter
    this.test = framesFilterTest(rest)
    this.time = from === undefined && to === undefined ? undefined : { from: from ?? -Infinity, to: to ?? Infinity }
  }

  /** Scans the frames that came since the last scan. */
  update(): void {
    const count = this.files.frameKeys.count
    // Frames are kept in the order they came, so those in the range are one run of positions: two binary searches.
    const index = this.time && this.files.index('frames')
    const first = index ? firstRecordAtOrAbove(index, this.time!.from) : 0
    const end = index ? firstRecordAbove(index, 'ts', this.time!.to) : Infinity
    while (this.scanned < count) {
      const keys = this.files.frameKeys.read(this.scanned, Math.min(SCAN, count - this.scanned))
      this.grow(this.scanned + keys.length)
      for (let i = 0; i < keys.length; i++) {
        const position = this.scanned + i
        if (position % BLOCK === 0) this.before[position / BLOCK] = this.total
        if (position >= first && position < end && this.matches(keys[i], position)) {
          this.bits[position >> 3] |= 1 << (position & 7)
          this.total++
        }
      }
      this.scanned += keys.length
    }
  }

  /** The position of the k-th match (from 0). */
  positionOf(k: number): number {
    const blocks = Math.ceil(this.scanned / BLOCK)
    let lo = 0
    let hi = blocks - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (this.before[mid] <= k) lo = mid
      else hi = mid - 1
    }
    let seen = this.before[lo]
    for (let position = lo * BLOCK; position < Math.min(this.scanned, (lo + 1) * BLOCK); position++)
      if (this.bits[position >> 3] & (1 << (position & 7)) && seen++ === k) return position
    return -1
  }

  /** How many matches lie before `position`. */
  rankOf(position: number): number {
    const block = Math.floor(position / BLOCK)
    let rank = this.before[block] ?? this.total
    for (let p = block * BLOCK; p < position && p < this.scanned; p++) if (this.bits[p >> 3] & (1 << (p & 7))) rank++
    return rank
  }

  private matches(key: number, position: number): boolean {
    let answer = this.byKey.get(key)
    if (answer !== undefined) return answer
    if (key === UNKEYED) {
      // One of the frames that came after the session's key table was full: read its line.
      const [record] = this.files.index('frames').records(position, 1)
      return this.test(this.files.lines([record])[0] as FrameEvent)
    }
    const known = this.files.keys.keys[key] as FrameKey | undefined
    answer = known ? this.test(known) : false
    this.byKey.set(key, answer)
    return answer
  }

  private grow(positions: number): void {
    if (this.bits.length * 8 < positions) {
      const bits = new Uint8Array(Math.max(this.bits.length * 2, Math.ceil(positions / 8) + BLOCK / 8))
      bits.set(this.bits)
      this.bits = bits
    }
    const blocks = Math.ceil(positions / BLOCK) + 1
    if (this.before.length < blocks) {
      const before = new Uint32Array(Math.max(this.before.length * 2, blocks))
      before.set(this.before)
      this.before = before
    }
  }
}

/** The position of the first frame at or after `ts` (the count when none is). */
function firstRecordAtOrAbove(index: IndexSource, ts: number): number {
  let lo = 0
  let hi = index.count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (index.records(mid, 1)[0].ts < ts) lo = mid + 1
    else hi = mid
  }
  return lo
}
