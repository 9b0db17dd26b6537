import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { detachedCut } from './safeJson'

/** How much of an oversized frame's JSON text is kept inline. */
export const SHOWN_BYTES = 64 * 1024

/**
 * Oversized frames: the event keeps the beginning of the JSON text and the full size; the whole text
 * goes to a file of its own, so memory stays bounded and nothing is lost. One folder per engine,
 * removed with it.
 */
export class FrameSpill {
  private dir: string | undefined
  private count = 0

  constructor(readonly maxFrameBytes: number) {}

  /**
   * Returns undefined when the frame fits, else its preview, and the file holding the whole text.
   * `force`: keep it aside whatever its size (a message Parallax refused, e.g. for its depth).
   */
  spill(text: string, bytes: number, force = false): { preview: string; truncated: { shownBytes: number; file?: string } } | undefined {
    if (bytes <= this.maxFrameBytes && !force) return undefined
    const preview = detachedCut(text, SHOWN_BYTES) // its own copy: the event must not keep the whole text alive
    let file: string | undefined
    try {
      this.dir ??= mkdtempSync(join(tmpdir(), `parallax-frames-${process.pid}-`)) // a fresh folder, 0700, that no one else made
      file = join(this.dir, `frame-${++this.count}.json`)
      writeInPieces(file, text)
    } catch {
      // The disk refused: the frame is still shown truncated, with its size, and no partial file is kept.
      if (file) rmSync(file, { force: true })
      file = undefined
    }
    return {
      preview: preview.length < text.length ? `${preview}…` : preview,
      truncated: { shownBytes: Buffer.byteLength(preview), ...(file && { file }) },
    }
  }

  read(file: string): string {
    if (!this.dir || !file.startsWith(this.dir + sep)) throw new Error('not a frame file of this engine')
    return readFileSync(file, 'utf8')
  }

  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true })
    this.dir = undefined
  }
}

/** Writes a (possibly very long) text a megabyte at a time, so writing it never holds a second copy of it in memory. */
function writeInPieces(file: string, text: string): void {
  const fd = openSync(file, 'wx', 0o600)
  try {
    for (let at = 0; at < text.length;) {
      let end = Math.min(at + PIECE, text.length)
      if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end-- // never half a surrogate pair
      writeSync(fd, text.slice(at, end))
      at = end
    }
  } finally {
    closeSync(fd)
  }
}

const PIECE = 1024 * 1024
