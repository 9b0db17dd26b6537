import {
  decodeFrameRows,
  decodeLogRows,
  frameOfRow,
  logOfRow,
  ROWS_PER_REQUEST,
  type FrameEvent,
  type FrameRows,
  type LogEvent,
  type LogRows,
} from '../../../shared/contract'

/** Positions a block covers: a list holds, fetches and lets go of rows a block at a time. */
export const BLOCK = 500
/**
 * Rows a list keeps, beyond what is on screen: when it holds more, the blocks used longest ago go (never the
 * newest, where live rows arrive) and are fetched again when shown. So memory stays flat however long the session.
 */
export const KEEP_ROWS = 50_000
/** Blocks a list keeps, however few rows each holds (a filter's matches far apart hold a block each). */
const KEEP_BLOCKS = (2 * KEEP_ROWS) / BLOCK

/** Where rows a list does not hold come from: the engine, by position (`frames.rows`, `logs.rows`), rows decoded. */
export interface RowSource {
  frames(connectionId: string, from: number, count: number): Promise<FrameRows>
  logs(connectionId: string, from: number, count: number): Promise<LogRows>
}

let source: RowSource | undefined

/** Sets where every list fetches rows from (the host's engine, once attached). */
export function setRowSource(rows: RowSource | undefined): void {
  source = rows
}

/** Reads rows through the engine's commands (through `invoke`), decoded. */
export function engineRowSource(invoke: {
  frames(input: { connectionId: string; from: number; count: number }): Promise<{ rows: FrameRows }>
  logs(input: { connectionId: string; from: number; count: number }): Promise<{ rows: LogRows }>
}): RowSource {
  return {
    frames: async (connectionId, from, count) => decodeFrameRows((await invoke.frames({ connectionId, from, count })).rows),
    logs: async (connectionId, from, count) => decodeLogRows((await invoke.logs({ connectionId, from, count })).rows),
  }
}

interface Block<E> {
  items: (E | undefined)[]
  held: number
  /** When it was last shown or written to (a tick of its list's clock): the least recent goes first. */
  used: number
}

/** How long a failed fetch waits before the same rows are asked for again. */
const RETRY_MS = 2000

/**
 * One connection's frames or log lines, by position (from 0, in the order they happened): how many there are
 * (`length`, from a backlog's counts, then one more for each live event), and the rows held, in blocks at their
 * positions. A session of ten million frames costs a count and what is on screen: a view asks for the rows it
 * shows (`want`), which are fetched by position and held, a placeholder meanwhile; rows far from what is shown are
 * let go (KEEP_ROWS). A live event is appended in O(1). A short session is held whole (`complete`), as before.
 */
abstract class PositionList<E extends { seq: number }> {
  length = 0
  private readonly blocks = new Map<number, Block<E>>()
  private held = 0
  private clock = 0
  private readonly asking = new Set<number>()
  private readonly failed = new Map<number, number>()
  private readonly listeners = new Set<() => void>()
  /** Moves on when rows arrive or are let go (not when live ones are appended: the store's `rev` says that). */
  changes = 0

  constructor(readonly connectionId: string) {}

  protected abstract fetch(from: number, count: number): Promise<{ seq: number[] }> | undefined
  protected abstract eventOf(rows: unknown, row: number): E

  /** The item at position `i`, or undefined while it is not held. */
  at(i: number): E | undefined {
    return this.blocks.get(Math.floor(i / BLOCK))?.items[i % BLOCK]
  }

  has(i: number): boolean {
    return this.at(i) !== undefined
  }

  /** Every position is held (a short session, or one whose rows all came). */
  get complete(): boolean {
    return this.held === this.length
  }

  /** How many rows are held now. */
  get heldCount(): number {
    return this.held
  }

  /** Appends a live event. */
  push(event: E): void {
    this.put(this.length, event)
  }

  /** Holds `item` at `position` (a row of a page or a fetch; one held already stays as it is). */
  put(position: number, item: E): void {
    if (position >= this.length) this.length = position + 1
    const number = Math.floor(position / BLOCK)
    let block = this.blocks.get(number)
    if (!block) {
      this.blocks.set(number, (block = { items: new Array<E | undefined>(BLOCK), held: 0, used: ++this.clock }))
      if (this.held > KEEP_ROWS || this.blocks.size > KEEP_BLOCKS) this.letGo()
    }
    block.used = ++this.clock
    if (block.items[position % BLOCK] !== undefined) return
    block.items[position % BLOCK] = item
    block.held++
    this.held++
  }

  /** Holds row `row` of `rows` (a page's) at `position`; returns what is held there. */
  putRow(position: number, rows: unknown, row: number): E {
    this.put(position, this.eventOf(rows, row))
    return this.at(position)!
  }

  /** The connection has (at least) `count` items. */
  setLength(count: number): void {
    if (count > this.length) this.length = count
  }

  /**
   * The positions `from` to `to - 1` are shown: keeps their blocks, and fetches those not held (once at a time,
   * a few blocks an ask). Resolves once they came (or could not).
   */
  want(from: number, to: number): Promise<void> {
    const first = Math.max(0, Math.floor(from / BLOCK))
    const last = Math.floor((Math.min(to, this.length) - 1) / BLOCK)
    const missing: number[] = []
    for (let number = first; number <= last; number++) {
      const block = this.blocks.get(number)
      if (block) block.used = ++this.clock
      const expected = Math.min(BLOCK, this.length - number * BLOCK)
      if ((block?.held ?? 0) >= expected || this.asking.has(number)) continue
      if (Date.now() - (this.failed.get(number) ?? -Infinity) < RETRY_MS) continue
      missing.push(number)
    }
    const asks: Promise<void>[] = []
    for (let i = 0; i < missing.length;) {
      let j = i + 1
      while (j < missing.length && missing[j] === missing[j - 1] + 1 && (j - i + 1) * BLOCK <= ROWS_PER_REQUEST) j++
      asks.push(this.load(missing.slice(i, j)))
      i = j
    }
    return Promise.all(asks).then(() => {})
  }

  /** Calls `listener` when rows arrive or are let go; returns how to stop. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  };

  /** The positions held, in order (for filtering what is loaded of a long session). */
  *heldPositions(): Generator<number> {
    for (const number of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const items = this.blocks.get(number)!.items
      for (let k = 0; k < BLOCK; k++) if (items[k] !== undefined) yield number * BLOCK + k
    }
  }

  /**
   * The position of the first item numbered `seq` or later (the length when there is none), when what is held
   * says so; undefined when it lies among rows not held (the engine knows: `frames.locate`).
   */
  locate(seq: number): number | undefined {
    if (this.length === 0) return 0
    if (this.complete) {
      let lo = 0
      let hi = this.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (this.at(mid)!.seq < seq) lo = mid + 1
        else hi = mid
      }
      return lo
    }
    // The first held item numbered `seq` or later; it is the answer when the item before it is held too.
    let found: number | undefined
    for (const [number, block] of this.blocks) {
      if (found !== undefined && number * BLOCK > found) continue
      for (let k = 0; k < BLOCK; k++) {
        const item = block.items[k]
        if (item !== undefined && item.seq >= seq) {
          if (found === undefined || number * BLOCK + k < found) found = number * BLOCK + k
          break
        }
      }
    }
    if (found === undefined) return this.has(this.length - 1) ? this.length : undefined
    return found === 0 || this.has(found - 1) ? found : undefined
  }

  /** The position of the item numbered `seq`, or -1 (not there, or not known from what is held). */
  indexOfSeq(seq: number): number {
    const at = this.locate(seq)
    return at !== undefined && at < this.length && this.at(at)?.seq === seq ? at : -1
  }

  /** Every item, when all are held (a short session's: for copying the lot). */
  all(): E[] {
    if (!this.complete) throw new Error('not every row is held: read them with `read`')
    return Array.from({ length: this.length }, (_, i) => this.at(i)!)
  }

  /** The items at `positions` (ascending), those not held fetched for this once (not kept: copying many leaves the view's rows be). */
  async read(positions: number[]): Promise<E[]> {
    const out = new Array<E>(positions.length)
    const missing: number[] = []
    positions.forEach((position, k) => {
      const item = this.at(position)
      if (item) out[k] = item
      else missing.push(k)
    })
    for (let i = 0; i < missing.length;) {
      const from = positions[missing[i]]
      let j = i + 1
      while (j < missing.length && positions[missing[j]] - from < ROWS_PER_REQUEST) j++
      const to = positions[missing[j - 1]] + 1
      const rows = await this.fetch(from, to - from)
      if (!rows) throw new Error('not connected to the engine')
      for (let k = i; k < j; k++) {
        const row = positions[missing[k]] - from
        if (row >= rows.seq.length) throw new Error(`row ${positions[missing[k]]} is not in the session`)
        out[missing[k]] = this.eventOf(rows, row)
      }
      i = j
    }
    return out
  }

  protected notify(): void {
    this.changes++
    for (const listener of this.listeners) listener()
  }

  private async load(numbers: number[]): Promise<void> {
    for (const number of numbers) this.asking.add(number)
    const from = numbers[0] * BLOCK
    const count = Math.min(numbers.length * BLOCK, this.length - from)
    try {
      const rows = await this.fetch(from, count)
      if (!rows) throw new Error('not connected to the engine')
      for (let row = 0; row < rows.seq.length; row++) this.put(from + row, this.eventOf(rows, row))
      for (const number of numbers) this.failed.delete(number)
    } catch {
      for (const number of numbers) this.failed.set(number, Date.now())
    } finally {
      for (const number of numbers) this.asking.delete(number)
      this.notify()
    }
  }

  /** Lets go of the blocks used longest ago until KEEP_ROWS (in KEEP_BLOCKS) are held (never the newest block, where live rows arrive). */
  private letGo(): void {
    const newest = Math.floor((this.length - 1) / BLOCK)
    const byAge = [...this.blocks].filter(([number]) => number !== newest).sort((a, b) => a[1].used - b[1].used)
    for (const [number, block] of byAge) {
      if (this.held <= KEEP_ROWS && this.blocks.size <= KEEP_BLOCKS) break
      this.blocks.delete(number)
      this.held -= block.held
      this.dropped(block.items)
    }
    this.notify()
  }

  /** Items let go (a block far from what is shown). */
  protected dropped(_items: (E | undefined)[]): void {}
}

/** What the Frames view reads of a connection's frames: all of them (FrameList) or one turn's (`between`). */
export interface Frames {
  readonly length: number
  /** Where the first of these is among its connection's frames (0 for all of them): `first + i + 1` is frame i's number. */
  readonly first: number
  /** Every one is held. */
  readonly complete: boolean
  /** The frame at position `i`, or undefined while it is not held (a placeholder shows; `want` fetches it). */
  at(i: number): FrameEvent | undefined
  indexOfSeq(seq: number): number
  want(from: number, to: number): Promise<void>
  read(positions: number[]): Promise<FrameEvent[]>
  readonly list: FrameList
}

export class FrameList extends PositionList<FrameEvent> implements Frames {
  readonly first = 0

  get list(): FrameList {
    return this
  }

  protected fetch(from: number, count: number) {
    return source?.frames(this.connectionId, from, count)
  }

  protected eventOf(rows: FrameRows, row: number): FrameEvent {
    return frameOfRow(rows, row)
  }

  /** The frames at `first` … `first + length - 1` (a turn's, found by number: see `locateRange`). */
  window(first: number, length: number): Frames {
    const held = () => {
      if (this.complete) return true
      for (let i = 0; i < length; i++) if (!this.has(first + i)) return false
      return true
    }
    return {
      length,
      first,
      list: this,
      get complete() {
        return held()
      },
      at: (i) => this.at(first + i),
      indexOfSeq: (seq) => {
        const at = this.indexOfSeq(seq)
        return at >= first && at < first + length ? at - first : -1
      },
      want: (from, to) => this.want(first + from, first + Math.min(to, length)),
      read: (positions) => this.read(positions.map((p) => first + p)),
    }
  }

  /** The frames numbered `from` to `to`, when what is held says where they are (else undefined: ask the engine). */
  between(from: number, to: number): Frames | undefined {
    const first = this.locate(from)
    const end = this.locate(to + 1)
    return first === undefined || end === undefined ? undefined : this.window(first, Math.max(0, end - first))
  }
}

/** A connection's log lines. A backlog's lines come without their text, which is fetched when shown or searched (store/logTexts.ts). */
export class LogList extends PositionList<LogEvent> {
  /** The lines held without their text, by the event made of each row. */
  private readonly textless = new WeakSet<LogEvent>()
  /** How many lines held have no text yet. */
  textlessCount = 0

  protected fetch(from: number, count: number) {
    return source?.logs(this.connectionId, from, count)
  }

  protected eventOf(rows: LogRows, row: number): LogEvent {
    const line = logOfRow(rows, row, '')
    this.textless.add(line)
    return line
  }

  override put(position: number, line: LogEvent): void {
    const before = this.at(position)
    super.put(position, line)
    if (before === undefined && this.textless.has(line)) this.textlessCount++
  }

  protected override dropped(items: (LogEvent | undefined)[]): void {
    for (const line of items) if (line && this.textless.has(line)) this.textlessCount--
  }

  /** A line's text, or undefined while it is not held or its text has not been fetched. */
  textAt(i: number): string | undefined {
    const line = this.at(i)
    return line === undefined || this.textless.has(line) ? undefined : line.text
  }

  /** Keeps the text of the line at `position` numbered `seq`, once fetched (a line let go meanwhile is left). */
  keepText(position: number, seq: number, text: string): void {
    const line = this.at(position)
    if (line?.seq !== seq || !this.textless.has(line)) return
    line.text = text
    this.textless.delete(line)
    this.textlessCount--
  }

  /** Some lines' texts came. */
  textsCame(): void {
    this.notify()
  }
}
