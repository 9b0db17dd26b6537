import {
  decodeFrameRows,
  frameOfRow,
  framesFilterTest,
  ROWS_PER_REQUEST,
  type FramesFilter,
  type ParallaxApi,
} from '../../../shared/contract'
import type { FrameList } from './rowLists'

/** Matches asked for at once. */
export const MATCHES_PAGE = 200
/** Pages of matches kept (their positions; the frames are the list's, which lets them go as it does its own). */
const KEEP_PAGES = 250
/** Matches judged here, among frames that came after the engine counted, before the engine is asked to count again. */
const LIVE_MATCHES = 2000

/**
 * The frames a filter lets through on a connection whose frames the UI does not all hold (a long session): the
 * engine counts and finds them among every frame it has (`frames.find`, a page of matches at a time, as the list
 * shows them), and the frames that come after it counted are judged here, with the same test, as they come. When
 * many have come, the engine is asked to count again (it goes on from where it was). Matches keep their rank: a
 * session's frames only ever grow at the end.
 */
export class FoundFrames {
  /** Matches among the first `through` frames (undefined until the engine answered). */
  total: number | undefined
  private through = 0
  /** Positions at `through` or later that match, judged here. */
  private live: number[] = []
  private judged = 0
  private readonly pages = new Map<number, { positions: number[]; used: number }>()
  private readonly asking = new Set<number>()
  private clock = 0
  private recounting = false
  private readonly test: ReturnType<typeof framesFilterTest>
  private readonly listeners = new Set<() => void>()
  changes = 0
  error: string | undefined

  constructor(
    private readonly api: ParallaxApi,
    readonly frames: FrameList,
    readonly filter: FramesFilter,
  ) {
    this.test = framesFilterTest(filter)
    void this.ask(0)
  }

  /** How many frames match, as far as known. */
  get count(): number {
    return (this.total ?? 0) + this.live.length
  }

  /** Judges the frames that came since (call before reading: it is O(frames new since the last call)). */
  update(): void {
    if (this.total === undefined) return
    const from = Math.max(this.judged, this.through)
    for (let position = from; position < this.frames.length; position++) {
      const frame = this.frames.at(position)
      if (!frame) {
        // Let go before it was judged (a flood the view did not follow): the engine counts them.
        this.judged = position
        this.recount()
        return
      }
      if (this.test(frame)) this.live.push(position)
    }
    this.judged = this.frames.length
    if (this.live.length > LIVE_MATCHES) this.recount()
  }

  /** The position of the `rank`-th match, or undefined while its page has not come. */
  positionAt(rank: number): number | undefined {
    const total = this.total ?? 0
    if (rank >= total) return this.live[rank - total]
    return this.pages.get(Math.floor(rank / MATCHES_PAGE))?.positions[rank % MATCHES_PAGE]
  }

  /** The rank of the match at `position`, or -1 when it is none or not known here. */
  rankOf(position: number): number {
    const total = this.total ?? 0
    if (position >= this.through) {
      const k = sortedIndexOf(this.live, position)
      return k === -1 ? -1 : total + k
    }
    for (const [number, page] of this.pages) {
      const k = sortedIndexOf(page.positions, position)
      if (k !== -1) return number * MATCHES_PAGE + k
    }
    return -1
  }

  /**
   * Matches `from` to `to - 1` are shown: their pages are kept, or asked for (a page brings its frames; one whose
   * frames the list let go meanwhile is asked again, rather than the blocks around each match), and the frames
   * judged here fetched.
   */
  want(from: number, to: number): void {
    const total = this.total ?? 0
    for (let number = Math.floor(from / MATCHES_PAGE); number * MATCHES_PAGE < Math.min(to, total); number++) {
      const page = this.pages.get(number)
      if (page) page.used = ++this.clock
      if (!page || page.positions.some((p) => p < this.frames.length && !this.frames.has(p))) void this.ask(number)
    }
    for (let rank = Math.max(from, total); rank < to; rank++) {
      const position = this.live[rank - total]
      if (position !== undefined && !this.frames.has(position)) void this.frames.want(position, position + 1)
    }
  }

  /** The positions of every match (for copying them): asked of the engine a few thousand at a time. */
  async allPositions(): Promise<number[]> {
    const out: number[] = []
    for (;;) {
      const found = await this.api.invoke('frames.find', {
        connectionId: this.frames.connectionId,
        filter: this.filter,
        from: out.length,
        count: ROWS_PER_REQUEST,
      })
      this.counted(found.total, found.frames)
      out.push(...found.positions)
      if (found.positions.length === 0 || out.length >= (this.total ?? 0)) break
    }
    this.update()
    return [...out.slice(0, this.total), ...this.live]
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private notify(): void {
    this.changes++
    for (const listener of this.listeners) listener()
  }

  /** Asks for page `number` of the matches (and with it, the count so far). */
  private async ask(number: number): Promise<void> {
    if (this.asking.has(number)) return
    this.asking.add(number)
    try {
      const found = await this.api.invoke('frames.find', {
        connectionId: this.frames.connectionId,
        filter: this.filter,
        from: number * MATCHES_PAGE,
        count: MATCHES_PAGE,
      })
      const rows = decodeFrameRows(found.rows)
      // Frames the engine has and this list has not counted yet (live, on their way) come with the live stream.
      found.positions.forEach((position, row) => position < this.frames.length && this.frames.put(position, frameOfRow(rows, row)))
      this.pages.set(number, { positions: found.positions, used: ++this.clock })
      this.counted(found.total, found.frames)
      if (this.pages.size > KEEP_PAGES) {
        const oldest = [...this.pages].sort((a, b) => a[1].used - b[1].used)[0][0]
        this.pages.delete(oldest)
      }
      this.error = undefined
    } catch (error) {
      this.error = (error as Error).message
    } finally {
      this.asking.delete(number)
      this.notify()
    }
  }

  /** The engine has counted again: what it counted replaces what was judged here up to where it got. */
  private counted(total: number, through: number): void {
    if (this.total !== undefined && through <= this.through) return
    this.total = total
    this.through = through
    this.live = this.live.filter((p) => p >= through)
    // A page asked for when it was the last, not full then, has more matches now.
    for (const [number, page] of this.pages)
      if (page.positions.length < MATCHES_PAGE && number * MATCHES_PAGE + page.positions.length < total) this.pages.delete(number)
    this.judged = Math.max(this.judged, through)
  }

  private recount(): void {
    if (this.recounting) return
    this.recounting = true
    void this.api
      .invoke('frames.find', { connectionId: this.frames.connectionId, filter: this.filter, from: 0, count: 0 })
      .then(
        (found) => this.counted(found.total, found.frames),
        () => {},
      )
      .finally(() => {
        this.recounting = false
        this.notify()
      })
  }
}

/** Position of `value` in an ascending array of whole numbers, or -1. */
export function sortedIndexOf(sorted: number[], value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < value) lo = mid + 1
    else hi = mid
  }
  return sorted[lo] === value ? lo : -1
}
