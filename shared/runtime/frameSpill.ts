import { lstat, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ownerRunning, startMarker } from './processLife'
import { detachedCut } from './safeJson'

/** How much of an oversized frame's JSON text is kept inline. */
export const SHOWN_BYTES = 64 * 1024

/**
 * Oversized frames: the event keeps the beginning of the JSON text and the full size; the whole text goes to
 * the connection's session on disk (`keep`: runtime/store, its payloads file), so memory stays bounded and
 * nothing is lost. `truncated.file` says where it is (`frames.export` reads it back).
 */
export class FrameSpill {
  constructor(
    readonly maxFrameBytes: number,
    /** Keeps a whole text; where it is, or undefined when it could not be kept (the disk refused). */
    private readonly keep: (text: string) => string | undefined,
  ) {}

  /**
   * Returns undefined when the frame fits, else its preview, and where the whole text is kept.
   * `force`: keep it aside whatever its size (a message Parallax refused, e.g. for its depth).
   */
  spill(text: string, bytes: number, force = false): { preview: string; truncated: { shownBytes: number; file?: string } } | undefined {
    if (bytes <= this.maxFrameBytes && !force) return undefined
    const preview = detachedCut(text, SHOWN_BYTES) // its own copy: the event must not keep the whole text alive
    let file: string | undefined
    try {
      file = this.keep(text)
    } catch {
      // The disk refused: the frame is still shown truncated, with its size.
    }
    return {
      preview: preview.length < text.length ? `${preview}…` : preview,
      truncated: { shownBytes: Buffer.byteLength(preview), ...(file && { file }) },
    }
  }
}

/**
 * The folders Parallax makes in the temporary folder: an engine's sessions when it has no data folder
 * (`parallax-sessions-<pid>-<start marker>-XXXXXX`), the spans of a session it cannot keep them beside
 * (`parallax-spans-…`), and the frame files of versions before sessions were kept
 * (`parallax-frames-…`, the oldest without a marker).
 */
const TEMPORARY_NAME = /^parallax-(?:frames|sessions|spans)-(\d+)-(?:(\d+)-)?[A-Za-z0-9]{6}$/

/** A folder of its own in the temporary folder for this process, named so a later start can tell when it is left over. */
export function temporaryFolderName(kind: 'sessions' | 'spans'): string {
  return `parallax-${kind}-${process.pid}-${startMarker(process.pid) ?? '0'}-`
}

/**
 * Removes the folders that Parallax processes no longer running left in the temporary folder (a crash, a
 * `kill -9`): the user's own folders only, never one of a process still running. Resolves with how many.
 */
export async function removeDeadSpills(dir = tmpdir()): Promise<number> {
  let removed = 0
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = TEMPORARY_NAME.exec(name)
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
