import { randomBytes } from 'node:crypto'
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Everything Parallax keeps on disk is the user's alone: folders 0700, files 0600. A folder that
 * already exists is tightened too (an older version, or a copy, may have made it wider).
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700).catch(() => {})
}

/**
 * Writes a whole file atomically: a private temp file beside it, renamed into place. If anything
 * fails (a full disk, a read-only folder) the temp file is removed, so no empty or partial file is
 * left behind, and the previous version stays as it was.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await ensurePrivateDir(dirname(path))
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, text, { mode: 0o600 })
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}
