import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { lstat, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { detachedCut } from './safeJson'

/** How much of an oversized frame's JSON text is kept inline. */
export const SHOWN_BYTES = 64 * 1024

/**
 * Oversized frames: the event keeps the beginning of the JSON text and the full size; the whole text
 * goes to a file of its own, so memory stays bounded and nothing is lost. One folder per connection in the
 * temporary folder, removed with the engine; named for the process that made it (its pid and when it
 * started), so that a Parallax that crashed leaves nothing the next start does not remove (`removeDeadSpills`).
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
      this.dir ??= mkdtempSync(join(tmpdir(), `${SPILL_PREFIX}${process.pid}-${startMarker(process.pid) ?? '0'}-`)) // a fresh folder, 0700, that no one else made
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

const SPILL_PREFIX = 'parallax-frames-'
/** `parallax-frames-<pid>-<start marker>-XXXXXX`; folders of older versions have no marker. */
const SPILL_NAME = /^parallax-frames-(\d+)-(?:(\d+)-)?[A-Za-z0-9]{6}$/

/**
 * When a process started, as the kernel counts it (Linux: /proc/<pid>/stat's `starttime`): with the pid it
 * tells a process from a later one given the same pid. Undefined where there is no /proc, or no such process.
 */
function startMarker(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

/** Whether the process that made a spill folder is still running: its pid is taken, by the same process where that can be told. */
function ownerRunning(pid: number, marker: string | undefined): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' // someone else's process: running
  }
  if (marker === undefined || marker === '0') return true
  const now = startMarker(pid)
  return now === undefined || now === marker
}

/**
 * Removes the spill folders that Parallax processes no longer running left in the temporary folder (a crash,
 * a `kill -9`): the user's own folders only, never one of a process still running. Resolves with how many.
 */
export async function removeDeadSpills(dir = tmpdir()): Promise<number> {
  let removed = 0
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = SPILL_NAME.exec(name)
    if (!match || ownerRunning(Number(match[1]), match[2])) continue
    const path = join(dir, name)
    const info = await lstat(path).catch(() => undefined)
    if (!info?.isDirectory() || (process.getuid !== undefined && info.uid !== process.getuid())) continue
    await rm(path, { recursive: true, force: true }).then(
      () => removed++,
      () => {},
    )
  }
  return removed
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
