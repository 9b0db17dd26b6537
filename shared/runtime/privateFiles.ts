import { randomBytes } from 'node:crypto'
import { chmod, link, mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Everything Parallax keeps on disk is the user's alone: folders 0700, files 0600. A folder that
 * already exists is tightened too (an older version, or a copy, may have made it wider), unless it is
 * plainly a shared one: someone else's, or sticky like /tmp (a data folder pointed at one by mistake).
 * Returns the first folder it had to create, if any (so a caller can seed a folder it made).
 */
export async function ensurePrivateDir(dir: string): Promise<string | undefined> {
  const created = await mkdir(dir, { recursive: true, mode: 0o700 })
  const info = await stat(dir)
  const shared = (info.mode & 0o1000) !== 0 || (process.getuid !== undefined && info.uid !== process.getuid())
  if ((info.mode & 0o077) !== 0 && !shared) await chmod(dir, 0o700).catch(() => {})
  return created
}

/** A private temp file beside `path`, holding `text`; removed again if the write fails (a full disk). */
async function writeTemp(path: string, text: string | Buffer): Promise<string> {
  await ensurePrivateDir(dirname(path))
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, text, { mode: 0o600, flag: 'wx' })
    return temp
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/**
 * Writes a whole file atomically: a private temp file beside it, renamed into place. If anything
 * fails (a full disk, a read-only folder) the temp file is removed, so no empty or partial file is
 * left behind, and the previous version stays as it was.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const temp = await writeTemp(path, text)
  try {
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/**
 * Like writePrivateFile, but never replaces anything: if `path` exists the write is refused with
 * EEXIST and both files stay as they were. The whole text is on disk before the name appears, so a
 * full disk leaves neither an empty nor a partial file under the name.
 */
export async function createPrivateFile(path: string, text: string | Buffer): Promise<void> {
  const temp = await writeTemp(path, text)
  try {
    await linkExclusive(temp, path)
  } finally {
    await rm(temp, { force: true }).catch(() => {})
  }
}

/** Copies a file (e.g. one that ships with the app) in as a private file, refusing to replace one. */
export async function copyPrivateFile(from: string, to: string): Promise<void> {
  await createPrivateFile(to, await readFile(from))
}

/**
 * Moves a file to a new name unless that name is taken, atomically: a hard link (which fails with
 * EEXIST if the name exists, never replacing it), then the old name is removed. On file systems
 * without hard links, the new name is first claimed with an exclusive create, then renamed over.
 */
export async function renameExclusive(from: string, to: string): Promise<void> {
  if ((await linkExclusive(from, to)) === 'moved') return
  await unlink(from).catch(async (error) => {
    await unlink(to).catch(() => {}) // both names point at the same file: undo the link, keep the original
    throw error
  })
}

/** Gives `from` the name `to` as well ('linked'), or only ('moved', where hard links are missing). */
async function linkExclusive(from: string, to: string): Promise<'linked' | 'moved'> {
  try {
    await link(from, to)
    return 'linked'
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error
    const claimed = await open(to, 'wx', 0o600) // EEXIST if the name is taken
    await claimed.close()
    // `to` is our own empty placeholder now, so renaming over it replaces nothing of the user's.
    await rename(from, to).catch(async (renameError) => {
      await rm(to, { force: true }).catch(() => {})
      throw renameError
    })
    return 'moved'
  }
}

/** Errors a file system without hard links answers `link` with. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK'])
