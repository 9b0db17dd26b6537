import { readFile, rename } from 'node:fs/promises'
import { writePrivateFile } from '../runtime/privateFiles'

/**
 * A list of records kept as one JSON file in the data folder (0600, replaced atomically), or nowhere
 * when there is no data folder (the CLI, tests). Entries that fail `check` are skipped; a file that is
 * not a JSON list is set aside as `<file>.corrupt-<time>`, so the next save loses nothing of it.
 */
export class JsonListFile<T> {
  constructor(
    private readonly file: string | undefined,
    private readonly check: (entry: unknown) => T | undefined,
  ) {}

  async read(): Promise<T[]> {
    if (!this.file) return []
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch {
      return [] // first run: nothing saved yet
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = undefined
    }
    if (!Array.isArray(parsed)) {
      await rename(this.file, `${this.file}.corrupt-${Date.now()}`).catch(() => {})
      return []
    }
    return parsed.map(this.check).filter((entry): entry is T => entry !== undefined)
  }

  async write(entries: T[]): Promise<void> {
    if (this.file) await writePrivateFile(this.file, JSON.stringify(entries, null, 2))
  }
}
