import { constants, existsSync } from 'node:fs'
import { mkdir, open, readlink, realpath, type FileHandle } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'

/** The largest file an agent may read or write through Parallax. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024

/** Why a path was refused: said to the agent (its JSON-RPC error) and to the user. */
export class OutsideWorkspace extends Error {}

/** As many links as the kernel follows in one path before it gives up (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40

const { O_RDONLY, O_WRONLY, O_CREAT } = constants
// Not every platform has these (Windows has none): where one is missing, its flag is no flag.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0
const O_DIRECTORY = constants.O_DIRECTORY ?? 0
const O_NONBLOCK = constants.O_NONBLOCK ?? 0

/**
 * Linux names each open file descriptor `/proc/self/fd/N`: a path through it starts at the folder the
 * descriptor holds, whatever its path names now — `openat(2)` as a path, which Node has no other way to say.
 */
const FD_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd')

/**
 * The folder the user chose for an ACP agent's `fs/*` and `terminal/*` requests, and the one place that says
 * whether a path is inside it. A path must be absolute (ACP's rule) and may not name `..`; where it leads —
 * every link along it followed, a link to nothing too — must be inside. The file is then opened at the
 * moment of the operation one folder at a time from the workspace down, following no link: a link swapped
 * in after the check (the file itself, or any folder on the way) makes the operation fail, never lead out.
 */
export class Workspace {
  private real: Promise<string> | undefined

  constructor(readonly root: string) {}

  /** The workspace's own real path (it must exist). */
  private rootReal(): Promise<string> {
    this.real ??= realpath(this.root).catch((error: Error) => {
      this.real = undefined
      throw new OutsideWorkspace(`the workspace folder ${this.root} cannot be used: ${error.message}`)
    })
    return this.real
  }

  /** Where `path` leads when that is inside the workspace (a real path, no link left in it); refused otherwise. */
  async confine(path: string): Promise<string> {
    if (typeof path !== 'string' || !path) throw new OutsideWorkspace('no path given')
    if (!isAbsolute(path)) throw new OutsideWorkspace(`${path} is not an absolute path (ACP paths are absolute)`)
    if (path.split(/[\\/]/).includes('..')) throw new OutsideWorkspace(`${path} names ".." : refused, whatever it resolves to`)
    const root = await this.rootReal()
    const real = await whereItLeads(path)
    if (!inside(root, real))
      throw new OutsideWorkspace(`${path} is outside the workspace ${this.root}${real !== path ? ` (it resolves to ${real})` : ''}`)
    return real
  }

  /** `fs/read_text_file`: the file's text, from `line` (1-based) for `limit` lines when given. */
  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const { file } = await this.openInside(path, O_RDONLY, false)
    let text: string
    try {
      const info = await file.stat()
      if (!info.isFile()) throw new OutsideWorkspace(`${path} is not a file`)
      if (info.size > MAX_FILE_BYTES) throw new OutsideWorkspace(`${path} is ${info.size} bytes; Parallax reads at most ${MAX_FILE_BYTES}`)
      text = await file.readFile('utf8')
    } finally {
      await file.close()
    }
    if (!line && !limit) return text
    const lines = text.split('\n')
    const from = Math.max(0, (line ?? 1) - 1)
    return lines.slice(from, limit ? from + limit : undefined).join('\n')
  }

  /** `fs/write_text_file`: writes (creating folders inside the workspace as needed); the real path written. */
  async write(path: string, content: string): Promise<string> {
    if (Buffer.byteLength(content) > MAX_FILE_BYTES) throw new OutsideWorkspace(`the content is over ${MAX_FILE_BYTES} bytes`)
    const { file, real } = await this.openInside(path, O_WRONLY | O_CREAT, true)
    try {
      // Checked before a byte changes: a FIFO or a device is no text file (opened without blocking, so it cannot hang).
      if (!(await file.stat()).isFile()) throw new OutsideWorkspace(`${path} is not a file`)
      await file.truncate(0)
      await file.writeFile(content, 'utf8')
    } finally {
      await file.close()
    }
    return real
  }

  /** A working directory for a terminal: the workspace itself unless the agent names one inside it. */
  async cwd(path?: string | null): Promise<string> {
    return path ? this.confine(path) : this.rootReal()
  }

  /**
   * Opens the file `path` leads to, inside the workspace, following no link: on Linux one folder at a time
   * from the workspace's own descriptor (creating the missing ones when asked), so what is opened is inside
   * however the path changes meanwhile. Elsewhere the file is opened by its real path without following a
   * link at its end, and its folder checked again once it is open.
   */
  private async openInside(path: string, flags: number, create: boolean): Promise<{ file: FileHandle; real: string }> {
    const real = await this.confine(path)
    const root = await this.rootReal()
    const parts = relative(root, real).split(sep).filter(Boolean)
    if (parts.length === 0) throw new OutsideWorkspace(`${path} is the workspace folder itself, not a file`)
    const moved = (error: unknown, where: string): never => {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMLINK')
        throw new OutsideWorkspace(`${path}: ${where} is a link or no folder now (it changed after the path was checked); nothing was done`)
      if (code === 'ENXIO') throw new OutsideWorkspace(`${path} is not a file`)
      throw error
    }
    if (!FD_PATHS) {
      if (create) await mkdir(dirname(real), { recursive: true })
      const file = await open(real, flags | O_NOFOLLOW | O_NONBLOCK, 0o666).catch((error: unknown) => moved(error, real))
      const folder = await realpath(dirname(real)).catch(() => '')
      if (!inside(root, folder)) {
        await file.close()
        throw new OutsideWorkspace(`${path}: its folder left the workspace while it was opened; nothing was done`)
      }
      return { file, real }
    }
    let folder = await open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    try {
      for (const [i, part] of parts.slice(0, -1).entries()) {
        const at = `/proc/self/fd/${folder.fd}/${part}`
        if (create)
          await mkdir(at).catch((error: NodeJS.ErrnoException) => {
            if (error.code !== 'EEXIST') throw error
          })
        const next = await open(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW).catch((error: unknown) =>
          moved(error, join(root, ...parts.slice(0, i + 1))),
        )
        await folder.close()
        folder = next
      }
      const file = await open(`/proc/self/fd/${folder.fd}/${parts.at(-1)!}`, flags | O_NOFOLLOW | O_NONBLOCK, 0o666).catch(
        (error: unknown) => moved(error, real),
      )
      return { file, real }
    } finally {
      await folder.close()
    }
  }
}

/**
 * Where a path leads once every link along it is followed, as the kernel would follow them — a link whose
 * target does not exist (yet) included — though its end need not exist: the deepest part that exists,
 * resolved, and the rest as named.
 */
async function whereItLeads(path: string): Promise<string> {
  let pending = path
  for (let links = 0; links <= MAX_LINKS; links++) {
    let existing = pending
    const rest: string[] = []
    for (;;) {
      const real = await realpath(existing).catch(() => undefined)
      if (real !== undefined) return join(real, ...rest)
      const link = await readlink(existing).catch(() => undefined)
      if (link !== undefined) {
        // A link to nothing (or a loop): go where it points, the rest of the path after it. Kept unnormalised,
        // so a `..` in the link's target is taken after the links before it, as the kernel takes it.
        pending = [isAbsolute(link) ? link : `${dirname(existing)}${sep}${link}`, ...rest].join(sep)
        break
      }
      const parent = dirname(existing)
      if (parent === existing) throw new OutsideWorkspace(`${path}: no part of it exists`)
      rest.unshift(basename(existing))
      existing = parent
    }
  }
  throw new OutsideWorkspace(`${path}: more than ${MAX_LINKS} links to follow (a loop?)`)
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}
