import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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

  /** Returns undefined when the frame fits, else its preview, and the file holding the whole text. */
  spill(text: string, bytes: number): { preview: string; truncated: { shownBytes: number; file?: string } } | undefined {
    if (bytes <= this.maxFrameBytes) return undefined
    const preview = text.slice(0, SHOWN_BYTES)
    let file: string | undefined
    try {
      this.dir ??= mkdirDir()
      file = join(this.dir, `frame-${++this.count}.json`)
      writeFileSync(file, text, { mode: 0o600 })
    } catch {
      file = undefined // the disk refused: the frame is still shown truncated, with its size
    }
    return { preview: `${preview}…`, truncated: { shownBytes: Buffer.byteLength(preview), ...(file && { file }) } }
  }

  read(file: string): string {
    if (!this.dir || !file.startsWith(this.dir)) throw new Error('not a frame file of this engine')
    return readFileSync(file, 'utf8')
  }

  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true })
    this.dir = undefined
  }
}

function mkdirDir(): string {
  const dir = join(tmpdir(), `parallax-frames-${process.pid}-${Date.now().toString(36)}`)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}
