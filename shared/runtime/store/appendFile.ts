import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs'

/**
 * A file only ever appended to, in batches: what is appended waits in memory and goes to the disk when
 * `flush` is called (the store flushes every few tens of milliseconds and when a batch is full), so writing
 * costs a system call per batch, not per record; `read` sees what waits as well as what was written. A crash
 * loses at most what waited. A write the disk refuses (full, read-only) is kept as `error`: nothing more is
 * written, nothing written is lost.
 */
export class AppendFile {
  private fd: number | undefined
  private waiting: Buffer[] = []
  private waitingBytes = 0
  /** Where lines are copied as they come (`appendLine`): one buffer a megabyte, not one a line. */
  private chunk: Buffer | undefined
  private used = 0
  /** Bytes on the disk. */
  private written: number
  error: string | undefined

  constructor(
    readonly path: string,
    /** `keep`: the bytes of an existing file (a session reopened, its torn tail cut) to append after; else a new file. */
    keep?: number,
  ) {
    this.fd = openSync(path, keep === undefined ? 'wx+' : 'r+', 0o600)
    this.written = keep ?? 0
    if (keep !== undefined && fstatSync(this.fd).size !== keep) ftruncateSync(this.fd, keep)
  }

  /** The file's length with what waits. */
  get size(): number {
    return this.written + this.waitingBytes + this.used
  }

  append(bytes: Buffer): number {
    const at = this.size
    if (this.fd === undefined) return at
    this.seal()
    this.waiting.push(bytes)
    this.waitingBytes += bytes.length
    return at
  }

  /** Appends a text and a newline; where it starts, and its length in bytes (the newline left out). */
  appendLine(text: string): { offset: number; length: number } {
    const offset = this.size
    const length = Buffer.byteLength(text)
    if (this.fd === undefined) return { offset, length }
    if (this.chunk && this.used + length + 1 > this.chunk.length) this.seal()
    if (length + 1 > CHUNK) {
      this.append(Buffer.from(`${text}\n`))
      return { offset, length }
    }
    this.chunk ??= Buffer.allocUnsafe(CHUNK)
    this.used += this.chunk.write(text, this.used)
    this.chunk[this.used++] = 0x0a
    return { offset, length }
  }

  /** Moves the lines copied so far to what waits. */
  private seal(): void {
    if (!this.chunk || this.used === 0) return
    this.waiting.push(this.chunk.subarray(0, this.used))
    this.waitingBytes += this.used
    this.chunk = undefined
    this.used = 0
  }

  /**
   * Appends a (possibly very long) text at once, a megabyte at a time, after what waits: writing it never holds
   * a second whole copy of it in memory. Where it starts, and its length in bytes.
   */
  appendText(text: string): { offset: number; length: number } {
    this.flush()
    const offset = this.written
    if (this.fd === undefined) return { offset, length: 0 }
    try {
      for (let at = 0; at < text.length;) {
        let end = Math.min(at + PIECE, text.length)
        if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end-- // never half a surrogate pair
        const piece = Buffer.from(text.slice(at, end))
        let done = 0
        while (done < piece.length) done += writeSync(this.fd, piece, done, piece.length - done, this.written + done)
        this.written += piece.length
        at = end
      }
    } catch (error) {
      this.error = (error as Error).message
      this.close()
      throw error
    }
    return { offset, length: this.written - offset }
  }

  /** Bytes waiting to be written. */
  get pending(): number {
    return this.waitingBytes + this.used
  }

  flush(): void {
    this.seal()
    if (this.fd === undefined || this.waitingBytes === 0) return
    const batch = this.waiting.length === 1 ? this.waiting[0] : Buffer.concat(this.waiting, this.waitingBytes)
    this.waiting = []
    this.waitingBytes = 0
    try {
      let done = 0
      while (done < batch.length) done += writeSync(this.fd, batch, done, batch.length - done, this.written + done)
      this.written += batch.length
    } catch (error) {
      this.error = (error as Error).message
      this.close()
    }
  }

  /** `length` bytes from `offset` (of what was written or waits). */
  read(offset: number, length: number): Buffer {
    if (offset + length > this.written) this.flush()
    const out = Buffer.allocUnsafe(length)
    if (this.fd === undefined) throw new Error(`${this.path} is closed${this.error ? ` (${this.error})` : ''}`)
    let done = 0
    while (done < length) {
      const got = readSync(this.fd, out, done, length - done, offset + done)
      if (got === 0) throw new Error(`${this.path} ends at ${offset + done}, before ${offset + length}`)
      done += got
    }
    return out
  }

  /** Up to `length` bytes from `offset`: fewer where the file ends first. */
  readUpTo(offset: number, length: number): Buffer {
    return this.read(offset, Math.max(0, Math.min(length, this.size - offset)))
  }

  close(): void {
    const fd = this.fd
    if (fd === undefined) return
    if (!this.error) this.flush()
    this.fd = undefined
    closeSync(fd)
  }
}

/** Reads `length` bytes at `offset` of a file that is not being written (a past session's). */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length)
  let done = 0
  while (done < length) {
    const got = readSync(fd, out, done, length - done, offset + done)
    if (got === 0) break
    done += got
  }
  return done === length ? out : out.subarray(0, done)
}

const PIECE = 1024 * 1024
const CHUNK = 1024 * 1024
