import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'

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
    const preview = text.slice(0, SHOWN_BYTES)
    let file: string | undefined
    try {
      this.dir ??= mkdtempSync(join(tmpdir(), `parallax-frames-${process.pid}-`)) // a fresh folder, 0700, that no one else made
      file = join(this.dir, `frame-${++this.count}.json`)
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' })
    } catch {
      // The disk refused: the frame is still shown truncated, with its size, and no partial file is kept.
      if (file) rmSync(file, { force: true })
      file = undefined
    }
    return { preview: preview.length < text.length ? `${preview}…` : preview, truncated: { shownBytes: Buffer.byteLength(preview), ...(file && { file }) } }
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
