import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'

/** The largest file an agent may read or write through Parallax. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024

/** Why a path was refused: said to the agent (its JSON-RPC error) and to the user. */
export class OutsideWorkspace extends Error {}

/**
 * The folder the user chose for an ACP agent's `fs/*` and `terminal/*` requests, and the one place that says
 * whether a path is inside it. A path must be absolute (ACP's rule), may not name `..`, and must still be
 * inside once symbolic links are resolved — the file's own, or for a file not yet written its nearest
 * existing folder's — so neither a link nor a `..` leads out.
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

  /** The real path of `path` when it is inside the workspace; refused otherwise. */
  async confine(path: string): Promise<string> {
    if (typeof path !== 'string' || !path) throw new OutsideWorkspace('no path given')
    if (!isAbsolute(path)) throw new OutsideWorkspace(`${path} is not an absolute path (ACP paths are absolute)`)
    if (path.split(/[\\/]/).includes('..')) throw new OutsideWorkspace(`${path} names ".." : refused, whatever it resolves to`)
    const root = await this.rootReal()
    const wanted = resolve(path)
    // The nearest part of the path that exists, resolved (a link anywhere along it is followed here).
    let existing = wanted
    let rest = ''
    for (;;) {
      try {
        existing = await realpath(existing)
        break
      } catch {
        const parent = dirname(existing)
        if (parent === existing) throw new OutsideWorkspace(`${path}: no part of it exists`)
        rest = rest ? `${existing.slice(parent.length + 1)}${sep}${rest}` : existing.slice(parent.length + 1)
        existing = parent
      }
    }
    const real = rest ? resolve(existing, rest) : existing
    if (!inside(root, real))
      throw new OutsideWorkspace(`${path} is outside the workspace ${this.root}${real !== wanted ? ` (it resolves to ${real})` : ''}`)
    return real
  }

  /** `fs/read_text_file`: the file's text, from `line` (1-based) for `limit` lines when given. */
  async read(path: string, line?: number | null, limit?: number | null): Promise<string> {
    const real = await this.confine(path)
    const info = await lstat(real)
    if (!info.isFile()) throw new OutsideWorkspace(`${path} is not a file`)
    if (info.size > MAX_FILE_BYTES) throw new OutsideWorkspace(`${path} is ${info.size} bytes; Parallax reads at most ${MAX_FILE_BYTES}`)
    const text = await readFile(real, 'utf8')
    if (!line && !limit) return text
    const lines = text.split('\n')
    const from = Math.max(0, (line ?? 1) - 1)
    return lines.slice(from, limit ? from + limit : undefined).join('\n')
  }

  /** `fs/write_text_file`: writes (creating folders inside the workspace as needed); the real path written. */
  async write(path: string, content: string): Promise<string> {
    if (Buffer.byteLength(content) > MAX_FILE_BYTES) throw new OutsideWorkspace(`the content is over ${MAX_FILE_BYTES} bytes`)
    const real = await this.confine(path)
    await mkdir(dirname(real), { recursive: true })
    // Between the check and the write a link could appear: checked again where it lands.
    await this.confine(dirname(real))
    await writeFile(real, content, 'utf8')
    return real
  }

  /** A working directory for a terminal: the workspace itself unless the agent names one inside it. */
  async cwd(path?: string | null): Promise<string> {
    return path ? this.confine(path) : this.rootReal()
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
