import { readdir, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { CommandError, type HooksFiles } from '../contract'
import { USER_MODULE_EXTENSIONS } from '../runtime/userModules'
import { JsonListFile } from './jsonListFile'

/** The extensions a hooks file may have (shared/hooks/loadHooks.ts reads them), as a file dialog takes them. */
export const HOOKS_EXTENSIONS = ['.json', ...USER_MODULE_EXTENSIONS].map((extension) => extension.slice(1))

/** How many recently loaded hooks files are remembered. */
const RECENT = 8

/** A host's own file dialog: the path chosen, or undefined when dismissed. */
export type ChooseFile = (request: { title: string; extensions: string[] }) => Promise<string | undefined>

/**
 * The hooks files a user can pick without typing a path: the examples in the built-ins' hooks folder (by
 * their real path, wherever Parallax runs from), the files loaded lately (kept in the data folder), and the
 * host's file dialog where it has one (the desktop app's).
 */
export class HooksFileChoices {
  private readonly recentFile: JsonListFile<string>
  /** Saves one at a time, in order, so the newest list is the one on disk. */
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly builtInDir: string | undefined,
    recentFile: string | undefined,
    private readonly chooseFile: ChooseFile | undefined,
  ) {
    this.recentFile = new JsonListFile(recentFile, (entry) => (typeof entry === 'string' && entry.length <= 4096 ? entry : undefined))
  }

  async list(): Promise<HooksFiles> {
    await this.saving
    const [builtIn, recent] = await Promise.all([this.builtIn(), this.recentFile.read()])
    const existing = await Promise.all(recent.map(async (path) => ((await isFile(path)) ? path : undefined)))
    return { builtIn, recent: existing.filter((path): path is string => path !== undefined), browse: this.chooseFile !== undefined }
  }

  async browse(): Promise<{ path: string | null }> {
    if (!this.chooseFile)
      throw new CommandError(
        'this host has no file dialog (a web page cannot read a file’s path from the browser): pick a file from the list, or type its path',
        'failed',
      )
    return { path: (await this.chooseFile({ title: 'Choose a hooks file', extensions: HOOKS_EXTENSIONS })) ?? null }
  }

  /** A file that loaded: first among the recent ones (the built-in examples are listed anyway). */
  remember(path: string): Promise<void> {
    const file = resolve(path)
    if (this.builtInDir && file.startsWith(resolve(this.builtInDir) + sep)) return this.saving
    this.saving = this.saving
      .then(async () => {
        const recent = await this.recentFile.read()
        await this.recentFile.write([file, ...recent.filter((entry) => entry !== file)].slice(0, RECENT))
      })
      .catch(() => {}) // a list that could not be saved is a convenience lost, not a failed load
    return this.saving
  }

  private async builtIn(): Promise<HooksFiles['builtIn']> {
    if (!this.builtInDir) return []
    const dir = this.builtInDir
    const names = await readdir(dir).catch(() => [] as string[])
    return names
      .filter((name) => HOOKS_EXTENSIONS.includes(extname(name).slice(1)))
      .sort()
      .map((name) => ({ name, path: join(dir, name) }))
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}
