import { chmod, lstat, open, readdir, readFile, rm, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { CommandError, type RecordingInfo } from '../contract'
import { copyPrivateFile, createPrivateFile, ensurePrivateDir, renameExclusive } from '../runtime/privateFiles'
import { openRecording, readRecording, RECORDING_FORMAT, redactRecordingText, type OpenedRecording } from './recording'

export type { RecordingInfo }
type HeaderSummary = NonNullable<RecordingInfo['header']>

/** How much of a file is read to find its header line; a real header is a few kilobytes. */
const HEADER_MAX_BYTES = 1024 * 1024
/** Deeper than any header Parallax writes (targets, a client profile); checked before parsing. */
const HEADER_MAX_DEPTH = 64
/** What the list carries of a header: enough to tell recordings apart, never the header itself. */
const SUMMARY_MAX_TARGETS = 20
const SUMMARY_MAX_CHARS = 200
/** Longest name the commands accept; a file dropped in with a longer one is listed as damaged. */
const NAME_MAX = 120
/** A temp file this old belongs to no write still under way (another host on the same folder included). */
const STALE_TEMP_MS = 60 * 60 * 1000
/** Files read at once while listing. */
const LIST_CONCURRENCY = 16

/**
 * Recordings in the app's data folder: `<name>.jsonl`, private to the user (folder 0700, files 0600).
 * Names are plain file names, never paths. Nothing here overwrites a recording: import, rename and
 * start refuse a name that is taken, and a write the disk refuses leaves no file behind.
 */
export class RecordingLibrary {
  private ready: Promise<void> | undefined

  /** `seeds` are recordings that ship with the app, copied in when the folder is first made. */
  constructor(
    readonly dir: string,
    private readonly seeds: string[] = [],
  ) {}

  /** The file for a new name: letters, digits, space and `. _ - @ ( )`. */
  pathOf(name: string): string {
    const clean = basename(name).replace(/\.jsonl$/, '')
    if (!/^[\w .@()-]{1,120}$/.test(clean) || clean.startsWith('.'))
      throw new CommandError(`"${name}" is not a usable recording name (letters, digits, space, . _ - @ ( ))`, 'invalid-input')
    return join(this.dir, `${clean}.jsonl`)
  }

  /** The file of a recording that is already there, whatever its name (it may have been dropped into the folder). */
  private existingPath(name: string): string {
    const clean = name.replace(/\.jsonl$/, '')
    if (!clean || clean !== basename(clean) || clean.startsWith('.') || clean.includes('\0'))
      throw new CommandError(`"${name}" is not a recording name`, 'invalid-input')
    return join(this.dir, `${clean}.jsonl`)
  }

  ensure(): Promise<void> {
    this.ready ??= (async () => {
      const created = await ensurePrivateDir(this.dir)
      if (created) for (const seed of this.seeds) await copyPrivateFile(seed, join(this.dir, basename(seed))).catch(() => {})
      // Files an older version (or a copy) left readable by others are made the user's alone, and
      // temp files of a write that never finished (the process was killed mid-import) are removed.
      for (const entry of await readdir(this.dir, { withFileTypes: true })) {
        if (!entry.isFile()) continue
        const path = join(this.dir, entry.name)
        const info = await stat(path).catch(() => undefined)
        if (!info) continue
        if (/^\..+\.[0-9a-f]{12}\.tmp$/.test(entry.name) && Date.now() - info.mtimeMs > STALE_TEMP_MS)
          await rm(path, { force: true }).catch(() => {})
        else if (info.mode & 0o077) await chmod(path, 0o600).catch(() => {})
      }
    })().catch((error) => {
      this.ready = undefined // the next command tries again (the folder may have been fixed)
      throw error
    })
    return this.ready
  }

  /**
   * Every recording, newest first, each with a small checked summary of its header. A file that
   * cannot be read, or whose first line is not a Parallax header, is listed with `damaged` saying
   * why, so it can still be seen and removed; it never hides the others.
   */
  async list(): Promise<RecordingInfo[]> {
    await this.ensure()
    const files = (await readdir(this.dir)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'))
    const infos: RecordingInfo[] = []
    for (let i = 0; i < files.length; i += LIST_CONCURRENCY)
      infos.push(...(await Promise.all(files.slice(i, i + LIST_CONCURRENCY).map((file) => this.describe(file)))))
    return infos.sort((a, b) => b.modifiedAt - a.modifiedAt || a.name.localeCompare(b.name))
  }

  private async describe(file: string): Promise<RecordingInfo> {
    const name = file.slice(0, -'.jsonl'.length)
    const path = join(this.dir, file)
    let info
    try {
      info = await stat(path)
    } catch (error) {
      return { name, bytes: 0, modifiedAt: 0, damaged: `cannot be read: ${describeError(error)}` }
    }
    const base = { name, bytes: info.size, modifiedAt: info.mtimeMs }
    if (!info.isFile()) return { ...base, damaged: 'not a file' }
    if (name.length > NAME_MAX) return { ...base, damaged: `its name is longer than ${NAME_MAX} characters; rename it in ${this.dir}` }
    let line: string
    try {
      line = await firstLine(path)
    } catch (error) {
      return { ...base, damaged: `cannot be read: ${describeError(error)}` }
    }
    const summary = summarizeHeader(line, info.size)
    return 'damaged' in summary ? { ...base, damaged: summary.damaged } : { ...base, header: summary.header }
  }

  async read(name: string): Promise<string> {
    await this.ensure() // the recordings that ship with the app are there from the first command, not the first listing
    try {
      return await readFile(this.existingPath(name), 'utf8')
    } catch (error) {
      if (error instanceof CommandError) throw error
      throw new CommandError(`no recording named "${name}"`, 'not-found')
    }
  }

  /** A recording's text to hand out, with its secrets taken out (it may predate today's redaction, or have been copied in by hand). */
  async export(name: string): Promise<string> {
    return redactRecordingText(await this.read(name))
  }

  /** Opens a recording (`openRecording`); a header that is not a usable Parallax header is dropped and reported as line 1, its mapping unused. */
  async load(name: string): Promise<OpenedRecording> {
    const text = await this.read(name)
    const end = text.indexOf('\n')
    const summary = summarizeHeader(end === -1 ? text : text.slice(0, end), text.length)
    return openRecording(text, 'damaged' in summary ? summary.damaged : undefined)
  }

  /**
   * Imports recording text under a name; it is checked first: a file with no usable line, or whose
   * first line is not a Parallax header, is refused. The name must be free. The text reaches the
   * folder whole or not at all (a full disk leaves no file behind), with its secrets taken out.
   */
  async import(name: string, text: string): Promise<{ name: string; problems: { line: number; message: string }[] }> {
    const path = this.pathOf(name)
    const parsed = readRecording(text, () => {})
    if (parsed.events === 0)
      throw new CommandError(
        `nothing to import: ${parsed.problems.map((p) => `line ${p.line}: ${p.message}`).join('; ') || 'the file is empty'}`,
        'invalid-input',
      )
    const end = text.indexOf('\n')
    const summary = summarizeHeader(end === -1 ? text : text.slice(0, end), text.length)
    if ('damaged' in summary) throw new CommandError(`not a Parallax recording: line 1: ${summary.damaged}`, 'invalid-input')
    await this.ensure()
    const clean = basename(path, '.jsonl')
    await createPrivateFile(path, redactRecordingText(text)).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw await this.taken(clean)
      throw new CommandError(`"${clean}" was not imported, and nothing was written: ${describeError(error)}`, 'failed')
    })
    return { name: clean, problems: parsed.problems }
  }

  /**
   * Makes the (empty, private) file a new recording is written to. A name the user chose must be
   * free; a generated one gets ` (2)`, ` (3)`… until it is.
   */
  async create(name: string, { generated = false } = {}): Promise<{ name: string; path: string }> {
    await this.ensure()
    // A generated name comes from a target's name, which may hold characters a file name cannot.
    const usable = generated
      ? name
          .replace(/[^\w .@()-]+/g, '-')
          .replace(/^[.\s]+/, '')
          .slice(0, 100) || 'recording'
      : name
    const clean = basename(this.pathOf(usable), '.jsonl')
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? clean : `${clean} (${n})`
      const path = this.pathOf(candidate)
      try {
        await createPrivateFile(path, '')
        return { name: candidate, path }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EEXIST') throw new CommandError(`cannot record to ${path}: ${describeError(error)}`, 'failed')
        if (!generated || n >= 1000) throw await this.taken(candidate)
      }
    }
  }

  /** Renames a recording; a name that is taken is refused (with a free one suggested) and both files stay as they were. */
  async rename(name: string, to: string): Promise<string> {
    const from = this.existingPath(name)
    const target = this.pathOf(to)
    const clean = basename(target, '.jsonl')
    if (from === target) return clean
    await renameExclusive(from, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw await this.taken(clean)
      if (error.code === 'ENOENT') throw new CommandError(`no recording named "${name}"`, 'not-found')
      throw new CommandError(`cannot rename "${name}" to "${clean}": ${describeError(error)}`, 'failed')
    })
    return clean
  }

  /** Removes a recording, damaged ones included (a dangling link goes, not what it pointed at). */
  async remove(name: string): Promise<boolean> {
    const path = this.existingPath(name)
    const existed = await lstat(path).then(
      () => true,
      () => false,
    )
    await rm(path, { force: true }).catch((error: NodeJS.ErrnoException) => {
      throw new CommandError(`cannot remove "${name}": ${describeError(error)}; remove it in ${this.dir}`, 'failed')
    })
    return existed
  }

  /** The refusal for a name that is taken, naming a free one. */
  private async taken(name: string): Promise<CommandError> {
    return new CommandError(
      `a recording named "${name}" exists already; pick another name (e.g. "${await this.freeName(name)}")`,
      'invalid-input',
    )
  }

  /** `name (2)`, `name (3)`… the first one with no file. */
  async freeName(name: string): Promise<string> {
    const base = name.replace(/ \(\d+\)$/, '')
    for (let n = 2; n < 10_000; n++) {
      const candidate = `${base} (${n})`
      const free = await stat(join(this.dir, `${candidate}.jsonl`)).then(
        () => false,
        () => true,
      )
      if (free) return candidate
    }
    return `${base} ${Date.now()}`
  }
}

/** The first line of a file, read a chunk at a time, at most HEADER_MAX_BYTES of it. */
async function firstLine(path: string): Promise<string> {
  const file = await open(path, 'r')
  try {
    const chunks: Buffer[] = []
    let total = 0
    while (total < HEADER_MAX_BYTES) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, HEADER_MAX_BYTES - total))
      const { bytesRead } = await file.read(chunk, 0, chunk.length, total)
      if (bytesRead === 0) break
      const end = chunk.subarray(0, bytesRead).indexOf(10)
      chunks.push(chunk.subarray(0, end === -1 ? bytesRead : end))
      total += bytesRead
      if (end !== -1) break
    }
    return Buffer.concat(chunks).toString('utf8')
  } finally {
    await file.close()
  }
}

/**
 * Checks a recording's first line and keeps only what the library shows of it: format, start time,
 * and the targets' ids and names (capped). Nesting is measured on the text before anything is parsed,
 * so no header, however deep, is ever walked or handed on.
 */
export function summarizeHeader(line: string, fileBytes: number): { header: HeaderSummary } | { damaged: string } {
  if (!line.trim()) return { damaged: fileBytes === 0 ? 'the file is empty' : 'the first line is empty, not a Parallax header' }
  if (Buffer.byteLength(line) >= HEADER_MAX_BYTES)
    return { damaged: `the first line is longer than ${HEADER_MAX_BYTES / 1024 / 1024} MB, not a Parallax header` }
  const depth = nestingDepth(line)
  if (depth > HEADER_MAX_DEPTH)
    return { damaged: `the first line is nested more than ${HEADER_MAX_DEPTH} levels deep, not a Parallax header` }
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { damaged: 'the first line is not valid JSON' }
  }
  const header = value as { format?: unknown; startedAt?: unknown; targets?: unknown }
  if (
    !header ||
    typeof header !== 'object' ||
    Array.isArray(header) ||
    typeof header.format !== 'string' ||
    !header.format.startsWith('parallax.recording/')
  ) {
    return { damaged: `the first line is not a ${RECORDING_FORMAT} header` }
  }
  if (header.format !== RECORDING_FORMAT)
    return { damaged: `recorded as ${JSON.stringify(cap(header.format))}, which this version does not read (it reads ${RECORDING_FORMAT})` }
  if (typeof header.startedAt !== 'string' || Number.isNaN(Date.parse(header.startedAt)))
    return { damaged: 'the header has no valid startedAt time' }
  if (!Array.isArray(header.targets)) return { damaged: 'the header lists no targets' }
  const targets: HeaderSummary['targets'] = []
  for (const target of header.targets.slice(0, SUMMARY_MAX_TARGETS) as { id?: unknown; name?: unknown }[]) {
    if (!target || typeof target !== 'object' || typeof target.id !== 'string' || typeof target.name !== 'string')
      return { damaged: "the header's targets are not {id, name} pairs" }
    targets.push({ id: cap(target.id), name: cap(target.name) })
  }
  return { header: { format: RECORDING_FORMAT, startedAt: cap(header.startedAt), targets } }
}

/** How deeply arrays and objects nest in JSON text, counted without parsing it (strings skipped). */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

function cap(text: string): string {
  return text.length > SUMMARY_MAX_CHARS ? `${text.slice(0, SUMMARY_MAX_CHARS)}…` : text
}

/** An error as a person reads it: a full disk says so. */
function describeError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT') return `the disk is full (${code})`
  if (code === 'ENOENT') return 'the file is missing (a dangling link?)'
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`
  if (code === 'EISDIR' || code === 'ERR_FS_EISDIR') return 'it is a folder, not a file'
  return message ?? String(error)
}
