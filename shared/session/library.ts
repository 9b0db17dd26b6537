import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { CommandError } from '../contract'
import { parseRecording, type RecordingHeader } from './recording'

export interface RecordingInfo {
  name: string
  bytes: number
  modifiedAt: number
  header?: RecordingHeader
}

/** Recordings in the app's data folder: `<name>.jsonl`. Names are plain file names, never paths. */
export class RecordingLibrary {
  private ready: Promise<void> | undefined

  /** `seeds` are recordings that ship with the app, copied in when the folder is first made. */
  constructor(
    readonly dir: string,
    private readonly seeds: string[] = [],
  ) {}

  pathOf(name: string): string {
    const clean = basename(name).replace(/\.jsonl$/, '')
    if (!/^[\w .@()-]{1,120}$/.test(clean) || clean.startsWith('.')) throw new CommandError(`"${name}" is not a usable recording name (letters, digits, space, . _ - @ ( ))`, 'invalid-input')
    return join(this.dir, `${clean}.jsonl`)
  }

  ensure(): Promise<void> {
    this.ready ??= (async () => {
      const created = await mkdir(this.dir, { recursive: true })
      if (created) for (const seed of this.seeds) await copyFile(seed, join(this.dir, basename(seed))).catch(() => {})
    })()
    return this.ready
  }

  async list(): Promise<RecordingInfo[]> {
    await this.ensure()
    const names = (await readdir(this.dir)).filter((f) => f.endsWith('.jsonl'))
    const infos = await Promise.all(
      names.map(async (file) => {
        const path = join(this.dir, file)
        const info = await stat(path)
        const firstLine = (await readFile(path, 'utf8').catch(() => '')).split('\n', 1)[0]
        let header: RecordingHeader | undefined
        try {
          header = JSON.parse(firstLine)
        } catch {
          header = undefined
        }
        return { name: file.replace(/\.jsonl$/, ''), bytes: info.size, modifiedAt: info.mtimeMs, ...(header?.format && { header }) }
      }),
    )
    return infos.sort((a, b) => b.modifiedAt - a.modifiedAt)
  }

  async read(name: string): Promise<string> {
    try {
      return await readFile(this.pathOf(name), 'utf8')
    } catch (error) {
      if (error instanceof CommandError) throw error
      throw new CommandError(`no recording named "${name}"`, 'not-found')
    }
  }

  async load(name: string) {
    return parseRecording(await this.read(name))
  }

  /** Imports recording text under a name; it is checked first, and a file with no usable line is refused. */
  async import(name: string, text: string): Promise<{ name: string; problems: { line: number; message: string }[] }> {
    const parsed = parseRecording(text)
    if (parsed.events.length === 0) throw new CommandError(`nothing to import: ${parsed.problems.map((p) => `line ${p.line}: ${p.message}`).join('; ') || 'the file is empty'}`, 'invalid-input')
    await this.ensure()
    await writeFile(this.pathOf(name), text, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      throw new CommandError(error.code === 'EEXIST' ? `a recording named "${name}" exists already` : error.message, 'invalid-input')
    })
    return { name: basename(this.pathOf(name), '.jsonl'), problems: parsed.problems }
  }

  async rename(name: string, to: string): Promise<void> {
    await rename(this.pathOf(name), this.pathOf(to)).catch(() => {
      throw new CommandError(`cannot rename "${name}" to "${to}"`, 'invalid-input')
    })
  }

  async remove(name: string): Promise<boolean> {
    const path = this.pathOf(name)
    const existed = await stat(path).then(
      () => true,
      () => false,
    )
    await rm(path, { force: true })
    return existed
  }
}
