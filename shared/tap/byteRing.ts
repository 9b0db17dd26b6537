/** Bytes of a record's head: its length, which way, and when (epoch ms). */
const HEAD = 16
/** The counters at the start of the shared memory (Int32 each): written, read, dropped, and the word the reader sleeps on. */
const COUNTERS = 16
/** Positions count bytes modulo 2^30 (a multiple of every ring size, which is a power of two): Int32 arithmetic only, no allocation. */
const POSITIONS = 2 ** 30 - 1

/**
 * Chunks handed from one thread to another through shared memory, without either waiting on the other: the
 * relay (one writer) puts each chunk it has passed on, with its direction and time, and the reader (one
 * worker) takes them in order. When the reader falls behind and the ring is full, a chunk is dropped and
 * counted rather than held: the relay never waits. Positions only grow (modulo 2^30), so written − read is
 * what waits, and a record may wrap around the end of the ring.
 */
export class ByteRing {
  private readonly counters: Int32Array
  private readonly data: Uint8Array
  private readonly head = Buffer.alloc(HEAD)

  /** A ring of `capacity` bytes, rounded up to a power of two. */
  static create(capacity: number): ByteRing {
    return new ByteRing(new SharedArrayBuffer(COUNTERS + 2 ** Math.ceil(Math.log2(capacity))))
  }

  constructor(readonly memory: SharedArrayBuffer) {
    this.counters = new Int32Array(memory, 0, 4)
    this.data = new Uint8Array(memory, COUNTERS)
  }

  /** Puts a chunk (way 0: host → server, 1: server → host, 2: server's stderr); false when it had to be dropped. */
  push(way: number, ts: number, chunk: Uint8Array): boolean {
    const need = align(HEAD + chunk.length)
    const written = Atomics.load(this.counters, 0)
    const waiting = (written - Atomics.load(this.counters, 1)) & POSITIONS
    if (this.data.length - waiting < need) {
      Atomics.add(this.counters, 2, 1)
      return false
    }
    this.head.writeUInt32LE(chunk.length, 0)
    this.head.writeUInt32LE(way, 4)
    this.head.writeDoubleLE(ts, 8)
    this.copyIn(written, this.head)
    this.copyIn(written + HEAD, chunk)
    Atomics.store(this.counters, 0, (written + need) & POSITIONS)
    // The reader looks on its own every few milliseconds (waking it per chunk would cost the relay a thread
    // switch per message); it is woken only when a quarter of the ring waits.
    if ((waiting + need) * 4 > this.data.length) {
      Atomics.add(this.counters, 3, 1)
      Atomics.notify(this.counters, 3)
    }
    return true
  }

  /** The next chunk, or undefined when none waits. */
  take(): { way: number; ts: number; bytes: Buffer } | undefined {
    const read = Atomics.load(this.counters, 1)
    if (read === Atomics.load(this.counters, 0)) return undefined
    const head = this.copyOut(read, HEAD)
    const length = head.readUInt32LE(0)
    const record = { way: head.readUInt32LE(4), ts: head.readDoubleLE(8), bytes: this.copyOut(read + HEAD, length) }
    Atomics.store(this.counters, 1, (read + align(HEAD + length)) & POSITIONS)
    return record
  }

  /** Chunks dropped so far because the reader was behind. */
  get dropped(): number {
    return Atomics.load(this.counters, 2)
  }

  /** Resolves when something may have been written since `seen` (the signal word's value then), or after `ms`. */
  async wait(seen: number, ms: number): Promise<void> {
    const waiting = (Atomics as unknown as WaitAsync).waitAsync(this.counters, 3, seen, ms)
    if (waiting.async) await waiting.value
  }

  /** The signal word now: read it before draining, wait on it after. */
  get written(): number {
    return Atomics.load(this.counters, 3)
  }

  private copyIn(at: number, bytes: Uint8Array): void {
    const start = at & (this.data.length - 1)
    const first = Math.min(bytes.length, this.data.length - start)
    this.data.set(bytes.subarray(0, first), start)
    if (first < bytes.length) this.data.set(bytes.subarray(first), 0)
  }

  private copyOut(at: number, length: number): Buffer {
    const start = at & (this.data.length - 1)
    const first = Math.min(length, this.data.length - start)
    const out = Buffer.allocUnsafe(length)
    out.set(this.data.subarray(start, start + first), 0)
    if (first < length) out.set(this.data.subarray(0, length - first), first)
    return out
  }
}

/** ES2024's `Atomics.waitAsync` (Node has it since 16), typed here while the project's lib is ES2023. */
type WaitAsync = {
  waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: boolean; value: Promise<string> | string }
}

function align(n: number): number {
  return Math.ceil(n / 8) * 8
}
