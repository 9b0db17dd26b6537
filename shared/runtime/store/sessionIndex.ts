import { AppendFile, readAt } from './appendFile'

/**
 * One kind of a session's events (its frames, its log lines, the rest), in order, as fixed-size records in a
 * file beside the session's events: the n-th record says where the n-th such event is — its seq, its time,
 * where its line starts in the events file and how long it is — and its key (a frame's or a log line's shape,
 * numbered in the session's key table; 0 for the rest). So the n-th frame of a session, the frame numbered
 * `seq` and the first frame at a time are each one read or a binary search away, whatever the session's
 * length, and nothing of it is held in memory.
 */
export const RECORD_BYTES = 32

export interface IndexRecord {
  seq: number
  ts: number
  offset: number
  length: number
  key: number
}

/** Records being written (a live session): filled into a chunk in memory, appended in batches with the events they point into. */
export class IndexWriter {
  private readonly file: AppendFile
  private chunk = Buffer.allocUnsafe(CHUNK_RECORDS * RECORD_BYTES)
  private filled = 0
  count: number

  constructor(path: string, keep?: number) {
    this.file = new AppendFile(path, keep === undefined ? undefined : keep * RECORD_BYTES)
    this.count = keep ?? 0
  }

  add(seq: number, ts: number, offset: number, length: number, key: number): void {
    const at = this.filled
    const chunk = this.chunk
    chunk.writeDoubleLE(seq, at)
    chunk.writeDoubleLE(ts, at + 8)
    chunk.writeDoubleLE(offset, at + 16)
    chunk.writeUInt32LE(length, at + 24)
    chunk.writeUInt32LE(key, at + 28)
    this.filled = at + RECORD_BYTES
    this.count++
    if (this.filled === chunk.length) this.seal()
  }

  records(from: number, count: number): IndexRecord[] {
    this.seal()
    return decode(this.file.read(from * RECORD_BYTES, Math.min(count, this.count - from) * RECORD_BYTES))
  }

  flush(): void {
    this.seal()
    this.file.flush()
  }

  close(): void {
    this.seal()
    this.file.close()
  }

  get error(): string | undefined {
    return this.file.error
  }

  /** Hands the records filled so far to the file (which writes them with its next batch). */
  private seal(): void {
    if (this.filled === 0) return
    this.file.append(this.filled === this.chunk.length ? this.chunk : Buffer.from(this.chunk.subarray(0, this.filled)))
    if (this.filled === this.chunk.length) this.chunk = Buffer.allocUnsafe(CHUNK_RECORDS * RECORD_BYTES)
    this.filled = 0
  }
}

/** Records filled in memory before they are handed to the file: 64 KB. */
const CHUNK_RECORDS = 2048

/** Records read from a file that is not being written (a past session's), or from a writer. */
export interface IndexSource {
  readonly count: number
  records(from: number, count: number): IndexRecord[]
}

/** A past session's index file, read where it lies. */
export class IndexReader implements IndexSource {
  constructor(
    private readonly fd: number,
    readonly count: number,
  ) {}

  records(from: number, count: number): IndexRecord[] {
    return decode(readAt(this.fd, from * RECORD_BYTES, Math.min(count, this.count - from) * RECORD_BYTES))
  }
}

function decode(bytes: Buffer): IndexRecord[] {
  const out: IndexRecord[] = []
  for (let at = 0; at + RECORD_BYTES <= bytes.length; at += RECORD_BYTES)
    out.push({
      seq: bytes.readDoubleLE(at),
      ts: bytes.readDoubleLE(at + 8),
      offset: bytes.readDoubleLE(at + 16),
      length: bytes.readUInt32LE(at + 24),
      key: bytes.readUInt32LE(at + 28),
    })
  return out
}

/** The position of the first record whose `field` is above `value` (the count when none is): a binary search, one read a step. */
export function firstRecordAbove(index: IndexSource, field: 'seq' | 'ts', value: number): number {
  let lo = 0
  let hi = index.count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (index.records(mid, 1)[0][field] <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A column of one 32-bit number a record (the frames' keys, beside frames.idx), so a whole session's frames can
 * be filtered by reading four bytes each instead of a record.
 */
export class KeyColumn {
  private chunk = new Uint32Array(CHUNK_RECORDS * 8)
  private filled = 0
  private readonly file: AppendFile | undefined
  count: number

  /** Written to `path` (a live session's), or read from `fd` (a past one's, `count` long). */
  constructor(where: { path: string; keep?: number } | { fd: number | undefined; count: number }) {
    if ('path' in where) {
      this.file = new AppendFile(where.path, where.keep === undefined ? undefined : where.keep * 4)
      this.count = where.keep ?? 0
    } else {
      this.fd = where.fd
      this.count = where.count
    }
  }

  private readonly fd: number | undefined

  add(key: number): void {
    this.chunk[this.filled++] = key
    this.count++
    if (this.filled === this.chunk.length) this.seal()
  }

  /** Keys `from` … `from + count - 1`. */
  read(from: number, count: number): Uint32Array {
    const n = Math.max(0, Math.min(count, this.count - from))
    if (n === 0) return new Uint32Array(0)
    this.seal()
    const bytes = this.file ? this.file.read(from * 4, n * 4) : readAt(this.fd!, from * 4, n * 4)
    // A copy aligned for the view (a Buffer may sit at any offset of its pool).
    return new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * 4))
  }

  flush(): void {
    this.seal()
    this.file?.flush()
  }

  close(): void {
    this.seal()
    this.file?.close()
  }

  private seal(): void {
    if (this.filled === 0 || !this.file) return
    this.file.append(Buffer.from(this.chunk.buffer, 0, this.filled * 4))
    this.chunk = new Uint32Array(this.chunk.length)
    this.filled = 0
  }
}
