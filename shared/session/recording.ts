import { closeSync, openSync, writeSync } from 'node:fs'
import type { EngineEvent, RecordingHeader } from '../contract'
import { PARALLAX_VERSION } from '../version'
import { Redactor } from '../runtime/redaction'
import { DEFAULT_MAPPING, turnsFromEvents, type RecordedTurn } from './turns'

export const RECORDING_FORMAT: RecordingHeader['format'] = 'parallax.recording/1'

/**
 * Writes a recording as JSON Lines: the header, then one event per line, each written through to the
 * file as it happens (a crash loses at most the line being written). Secrets are redacted before
 * anything reaches the disk, by one redactor for the whole file: the secrets it takes out of the header's
 * target (arguments, environment, URL, headers) and of each event are then looked for in every later
 * line's text too.
 */
export class RecordingWriter {
  private fd: number | undefined
  private readonly redactor: Redactor
  lines = 0
  /** Set when a write failed (disk full, folder read-only): recording stops, the session goes on. */
  error: string | undefined

  constructor(
    readonly path: string,
    header: Omit<RecordingHeader, 'format' | 'app' | 'startedAt' | 'mapping'> & Partial<Pick<RecordingHeader, 'mapping'>>,
    secretKeys: string[] = [],
  ) {
    this.redactor = new Redactor(secretKeys)
    this.fd = openSync(path, 'a', 0o600)
    this.writeLine({
      format: RECORDING_FORMAT,
      app: { name: 'Parallax', version: PARALLAX_VERSION },
      startedAt: new Date().toISOString(),
      mapping: { skillField: 'skill', inputField: 'input' },
      ...header,
    })
  }

  write(event: EngineEvent): void {
    this.writeLine(event)
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  private writeLine(value: unknown): void {
    if (this.fd === undefined) return
    try {
      writeSync(this.fd, `${JSON.stringify(this.redactor.redact(value))}\n`)
      this.lines++
    } catch (error) {
      this.error = `recording to ${this.path} stopped: ${(error as Error).message}`
      this.close()
    }
  }
}

type Problem = { line: number; message: string }

export interface LoadedRecording {
  header: RecordingHeader | undefined
  events: EngineEvent[]
  /** Every line that could not be used, by number; the rest still loads. */
  problems: Problem[]
}

/**
 * Reads a recording line by line, reporting each corrupt or truncated line by its number and handing every
 * other event, in order, to `onEvent`: memory and work go per line, and nothing is kept but what `onEvent`
 * keeps. Returns the header, the problems and how many events there were.
 */
export function readRecording(
  text: string,
  onEvent: (event: EngineEvent) => void,
): { header: RecordingHeader | undefined; problems: Problem[]; events: number } {
  const problems: Problem[] = []
  let header: RecordingHeader | undefined
  let events = 0
  // Where the last line with anything on it ends: a line that does not parse there was cut short.
  const contentEnd = text.trimEnd().length
  for (let start = 0, number = 1; start < text.length; number++) {
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(start, end)
    start = end + 1
    if (!line.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      problems.push({
        line: number,
        message: end >= contentEnd ? 'truncated: the last line is incomplete (was the recording interrupted?)' : 'not valid JSON',
      })
      continue
    }
    if (number === 1 || (!header && events === 0)) {
      if ((value as { format?: unknown })?.format === RECORDING_FORMAT) {
        header = value as RecordingHeader
        continue
      }
      problems.push({ line: number, message: `the first line is not a ${RECORDING_FORMAT} header` })
    }
    const event = value as Partial<EngineEvent>
    if (!event || typeof event !== 'object' || typeof event.type !== 'string' || typeof event.seq !== 'number') {
      problems.push({ line: number, message: 'not an event (needs "type" and "seq")' })
      continue
    }
    events++
    onEvent(event as EngineEvent)
  }
  if (!header && !problems.some((p) => p.line === 1)) problems.unshift({ line: 1, message: 'no header line' })
  return { header, problems, events }
}

/** Reads a recording whole: every event, and each corrupt or truncated line by its number. */
export function parseRecording(text: string): LoadedRecording {
  const events: EngineEvent[] = []
  const { header, problems } = readRecording(text, (event) => events.push(event))
  return { header, events, problems }
}

/** What opening a recording to replay it needs: its header, problems, how many events it holds, and its turns. */
export interface OpenedRecording {
  header: RecordingHeader | undefined
  problems: Problem[]
  events: number
  turns: RecordedTurn[]
}

/**
 * Opens a recording to replay it: every line is checked, and only its conversation is kept (the turns come
 * from it). A header found unusable (`damagedHeader`, why) is dropped, reported as line 1, and its mapping unused;
 * a usable header's mapping that names no two fields is reported the same way and replaced by the default.
 */
export function openRecording(text: string, damagedHeader?: string): OpenedRecording {
  const conversation: EngineEvent[] = []
  const read = readRecording(text, (event) => {
    if (event.type === 'conversation') conversation.push(event)
  })
  const headerProblem = damagedHeader ?? mappingProblem(read.header?.mapping)
  if (damagedHeader) read.header = undefined
  else if (headerProblem) read.header = { ...read.header!, mapping: DEFAULT_MAPPING } // the other fields still stand
  if (headerProblem && !read.problems.some((p) => p.line === 1)) read.problems.unshift({ line: 1, message: headerProblem })
  return { ...read, turns: turnsFromEvents(conversation, read.header?.mapping) }
}

/** Why a header's turn mapping cannot be used (it names the two fields of a data part as strings), if it cannot. */
function mappingProblem(mapping: unknown): string | undefined {
  if (mapping === undefined) return undefined
  const fields = mapping as { skillField?: unknown; inputField?: unknown } | null
  if (typeof fields?.skillField === 'string' && typeof fields.inputField === 'string') return undefined
  return "the header's mapping does not name a skill field and an input field: the defaults (skill, input) are used"
}

/**
 * Recording text with its secrets taken out, line by line with one redactor (so what the header and
 * earlier lines give away is looked for in later ones). For text that enters the library (import) or
 * leaves it (export): lines with nothing to redact are kept byte for byte, a line that is not JSON is
 * redacted as text, and so is a line nested too deeply to be rewritten safely.
 */
export function redactRecordingText(text: string, secretKeys: string[] = []): string {
  const redactor = new Redactor(secretKeys)
  const lines = text.split('\n')
  let changed = false
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (!line.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      value = undefined
    }
    let out: string
    if (value === undefined || value === null || typeof value !== 'object') out = redactor.text(line)
    else {
      const redacted = redactor.redact(value)
      if (redacted === value) continue
      out = redactor.cutDeep ? redactor.text(line) : JSON.stringify(redacted)
    }
    if (out !== line) {
      lines[i] = out
      changed = true
    }
  }
  return changed ? lines.join('\n') : text
}
