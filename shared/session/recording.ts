import { closeSync, openSync, writeSync } from 'node:fs'
import type { EngineEvent, RecordingHeader } from '../contract'
import { PARALLAX_VERSION } from '../version'
import { Redactor } from './redaction'

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

export interface LoadedRecording {
  header: RecordingHeader | undefined
  events: EngineEvent[]
  /** Every line that could not be used, by number; the rest still loads. */
  problems: { line: number; message: string }[]
}

/** Reads a recording, reporting each corrupt or truncated line by its number and keeping the rest. */
export function parseRecording(text: string): LoadedRecording {
  const lines = text.split('\n')
  const problems: LoadedRecording['problems'] = []
  const events: EngineEvent[] = []
  let header: RecordingHeader | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (!line.trim()) continue
    const number = i + 1
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      const last = i === lines.length - 1 || lines.slice(i + 1).every((l) => !l.trim())
      problems.push({
        line: number,
        message: last ? 'truncated: the last line is incomplete (was the recording interrupted?)' : 'not valid JSON',
      })
      continue
    }
    if (number === 1 || (!header && events.length === 0)) {
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
    events.push(event as EngineEvent)
  }
  if (!header && !problems.some((p) => p.line === 1)) problems.unshift({ line: 1, message: 'no header line' })
  return { header, events, problems }
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
