import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, chmod, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { createPrivateFile, ensurePrivateDir } from '../../shared/runtime/privateFiles'

/** The file's text, refused when it is not UTF-8 (writing it back would change bytes Parallax did not mean to touch). */
export async function readConfigText(file: string): Promise<string> {
  const bytes = await readFile(file)
  const text = bytes.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(bytes)) throw new Error('it is not UTF-8 text')
  return text
}

/** Why the file cannot be written in place, or undefined when it can (checked before anything is written). */
export async function unwritable(file: string): Promise<string | undefined> {
  const real = await realpath(file)
  const info = await stat(real)
  // A file with no write bits is read-only even to root, who `access` would let through.
  if ((info.mode & 0o222) === 0) return `${file} is read-only`
  try {
    await access(real, constants.W_OK)
    await access(dirname(real), constants.W_OK)
  } catch {
    return `${file} cannot be written (permission denied)`
  }
  return undefined
}

/**
 * Replaces the file's text atomically (a temp file beside it, renamed into place), keeping its mode and, through
 * a symbolic link, the link; refused when the file changed since `expected` was read (the host may have saved it).
 */
export async function replaceConfigText(file: string, expected: string, text: string): Promise<void> {
  const real = await realpath(file)
  if ((await readFile(real, 'utf8')) !== expected)
    throw new Error(`${file} changed while Parallax was editing it: nothing written, run again`)
  const mode = (await stat(real)).mode & 0o7777
  const temp = join(dirname(real), `.${basename(real)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temp, text, { mode, flag: 'wx' })
    await chmod(temp, mode) // the umask narrowed it
    await rename(temp, real)
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {})
    throw error
  }
}

/** The folder that keeps a host's config backups, in the data folder. */
export function backupFolder(dataDir: string, host: string): string {
  return join(dataDir, 'tap-backups', host)
}

/** Keeps the file's text as it was, `<timestamp>-<name>` in the host's backup folder (0600, in 0700 folders); returns its path. */
export async function keepBackup(dataDir: string, host: string, file: string, text: string): Promise<string> {
  await ensurePrivateDir(dataDir)
  await ensurePrivateDir(join(dataDir, 'tap-backups'))
  const folder = backupFolder(dataDir, host)
  await ensurePrivateDir(folder)
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  for (let n = 0; ; n++) {
    const path = join(folder, `${stamp}${n ? `.${n}` : ''}-${basename(file)}`)
    try {
      await createPrivateFile(path, text)
      return path
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error
    }
  }
}

/** The texts of the newest backups of files named as `file` is, newest first (at most `limit`). */
export async function backupTexts(dataDir: string, host: string, file: string, limit = 20): Promise<string[]> {
  const folder = backupFolder(dataDir, host)
  const names = await readdir(folder).catch(() => [] as string[])
  const mine = names.filter((name) => name.endsWith(`-${basename(file)}`)).sort((a, b) => (a < b ? 1 : -1))
  const texts: string[] = []
  for (const name of mine.slice(0, limit)) {
    const text = await readFile(join(folder, name), 'utf8').catch(() => undefined)
    if (text !== undefined) texts.push(text)
  }
  return texts
}
