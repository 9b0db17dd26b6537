import { closeSync, existsSync, fstatSync, openSync, readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, SessionSummary } from '../../contract'
import { AppendFile, readAt } from './appendFile'
import { IndexReader, IndexWriter, KeyColumn, RECORD_BYTES, type IndexRecord, type IndexSource } from './sessionIndex'
import { KeyTable } from './keyTable'
import { SpanIndexWriter } from './spanIndex'

/**
 * One session's folder: every event of one connection, in order, and how to find each.
 *
 *   events.jsonl   one JSON line an event (redacted before it is written), appended in batches
 *   frames.idx     the n-th frame: seq, time, where its line is, its key   (sessionIndex.ts)
 *   frames.keys    the n-th frame's key alone, for filtering the lot
 *   logs.idx       the n-th log line, likewise
 *   others.idx     the n-th other event (connection states, handshakes, conversation, calls…)
 *   keys.jsonl     the frames' and log lines' keys, numbered (keyTable.ts)
 *   payloads.bin   the whole text of each frame too large to keep inline (the frame names where it is)
 *   spans/         the session on a time axis: its spans by lane, written as it goes (spanIndex.ts)
 *   session.json   what the session is: its target, owner, times, counts, how it ended
 *
 * Lines are written before the records that point at them, so after a crash every record points at a whole
 * line; `repair` cuts what follows the last one.
 */
export type EventClass = 'frames' | 'logs' | 'others'
export const CLASSES: EventClass[] = ['frames', 'logs', 'others']

export function classOf(event: EngineEvent): EventClass {
  return event.type === 'frame' ? 'frames' : event.type === 'log' ? 'logs' : 'others'
}

export interface SessionFiles {
  readonly dir: string
  readonly keys: KeyTable
  index(kind: EventClass): IndexSource
  /** The frames' keys, in order (see keyTable.ts). */
  readonly frameKeys: KeyColumn
  /** The lines of `records`, parsed. */
  lines(records: IndexRecord[]): EngineEvent[]
  /** Up to `length` bytes of the events file from `offset` (many lines at once, for walking a session in order). */
  bytes(offset: number, length: number): Buffer
  /** `length` bytes of a frame's whole payload text from `offset` of payloads.bin. */
  payload(offset: number, length: number): string
}

/** A live session's files, written as its connection goes. */
export class SessionWriter implements SessionFiles {
  private readonly events: AppendFile
  private readonly payloads: AppendFile
  private readonly indexes: Record<EventClass, IndexWriter>
  readonly keys: KeyTable
  readonly frameKeys: KeyColumn
  /** The spans, made as events come (absent on a session reopened after a crash: built from its events when read). */
  readonly spans: SpanIndexWriter | undefined

  constructor(
    readonly dir: string,
    public summary: SessionSummary,
    /** For a session reopened after a crash: how much of each file to keep (see `repair`). */
    kept?: Kept,
  ) {
    this.events = new AppendFile(join(dir, 'events.jsonl'), kept?.events)
    this.payloads = new AppendFile(join(dir, 'payloads.bin'), kept?.payloads)
    this.indexes = {
      frames: new IndexWriter(join(dir, 'frames.idx'), kept?.frames),
      logs: new IndexWriter(join(dir, 'logs.idx'), kept?.logs),
      others: new IndexWriter(join(dir, 'others.idx'), kept?.others),
    }
    this.frameKeys = new KeyColumn({ path: join(dir, 'frames.keys'), keep: kept?.frames })
    this.keys = kept ? new KeyTable(join(dir, 'keys.jsonl'), readText(join(dir, 'keys.jsonl'))) : new KeyTable(join(dir, 'keys.jsonl'))
    if (kept) rmSync(join(dir, 'spans'), { recursive: true, force: true })
    this.spans = kept ? undefined : new SpanIndexWriter(join(dir, 'spans'))
    this.writeSummary()
  }

  /** Appends an event as `line` (its redacted JSON). */
  append(event: EngineEvent, line: string): void {
    const { offset, length } = this.events.appendLine(line)
    const kind = classOf(event)
    const key = kind === 'others' ? 0 : this.keys.numberOf(event)
    this.indexes[kind].add(event.seq, event.ts, offset, length, key)
    this.summary.events++
    if (kind === 'frames') {
      this.frameKeys.add(key)
      this.summary.frames++
    } else if (kind === 'logs') this.summary.logs++
    this.summary.lastEventAt = event.ts
    this.spans?.add(event)
  }

  /** Keeps a frame's whole text aside; returns where it is. */
  keepPayload(text: string): { offset: number; length: number } {
    return this.payloads.appendText(text)
  }

  index(kind: EventClass): IndexSource {
    return this.indexes[kind]
  }

  lines(records: IndexRecord[]): EngineEvent[] {
    return records.map((r) => JSON.parse(this.events.read(r.offset, r.length).toString('utf8')) as EngineEvent)
  }

  bytes(offset: number, length: number): Buffer {
    return this.events.readUpTo(offset, length)
  }

  payload(offset: number, length: number): string {
    return this.payloads.read(offset, length).toString('utf8')
  }

  /** Bytes waiting to be written. */
  get pending(): number {
    return this.events.pending
  }

  /** Writes what waits: lines first, then the records that point at them. */
  flush(): void {
    this.payloads.flush()
    this.events.flush()
    this.keys.flush()
    this.frameKeys.flush()
    for (const kind of CLASSES) this.indexes[kind].flush()
    this.spans?.flush()
    this.summary.bytes = this.events.size + this.payloads.size
  }

  /** Why writing stopped, once it did (a full disk): the first file's error. */
  get error(): string | undefined {
    return this.events.error ?? this.payloads.error ?? CLASSES.map((k) => this.indexes[k].error).find(Boolean)
  }

  writeSummary(): void {
    writeSummary(this.dir, this.summary)
  }

  close(ended: Pick<SessionSummary, 'ended' | 'endedAt' | 'reason'>): void {
    this.flush()
    Object.assign(this.summary, ended)
    this.writeSummary()
    this.events.close()
    this.payloads.close()
    this.keys.close()
    this.frameKeys.close()
    for (const kind of CLASSES) this.indexes[kind].close()
    this.spans?.close(this.summary.endedAt ?? this.summary.lastEventAt)
  }
}

/** A past session's files, read where they lie (nothing is written). */
export class SessionReader implements SessionFiles {
  private readonly fds: number[] = []
  private readonly eventsFd: number
  private readonly payloadsFd: number | undefined
  private readonly indexes: Record<EventClass, IndexReader>
  readonly keys: KeyTable
  readonly frameKeys: KeyColumn

  constructor(
    readonly dir: string,
    readonly summary: SessionSummary,
  ) {
    this.eventsFd = this.open('events.jsonl')!
    this.payloadsFd = this.open('payloads.bin')
    const reader = (name: string) => {
      const fd = this.open(name)
      return new IndexReader(fd ?? -1, fd === undefined ? 0 : Math.floor(fstatSync(fd).size / RECORD_BYTES))
    }
    this.indexes = { frames: reader('frames.idx'), logs: reader('logs.idx'), others: reader('others.idx') }
    this.frameKeys = new KeyColumn({ fd: this.open('frames.keys'), count: this.indexes.frames.count })
    this.keys = KeyTable.read(join(dir, 'keys.jsonl'))
  }

  index(kind: EventClass): IndexSource {
    return this.indexes[kind]
  }

  lines(records: IndexRecord[]): EngineEvent[] {
    return records.map((r) => JSON.parse(readAt(this.eventsFd, r.offset, r.length).toString('utf8')) as EngineEvent)
  }

  bytes(offset: number, length: number): Buffer {
    return readAt(this.eventsFd, offset, length)
  }

  payload(offset: number, length: number): string {
    if (this.payloadsFd === undefined) throw new Error('this session kept no whole payloads')
    return readAt(this.payloadsFd, offset, length).toString('utf8')
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd)
  }

  private open(name: string): number | undefined {
    const path = join(this.dir, name)
    if (!existsSync(path)) return undefined
    const fd = openSync(path, 'r')
    this.fds.push(fd)
    return fd
  }
}

/** How much of each file a session cut short keeps: every record that points at a whole line, and those lines. */
export interface Kept {
  events: number
  payloads: number
  frames: number
  logs: number
  others: number
}

/**
 * Finds where a session cut short (a crash, `kill -9`) really ends: each index's records up to the last that
 * points at a whole line of the events file (a record after a torn line, or one torn itself, is dropped), the
 * events file up to the end of the last line a record points at, and what each kept. Its counts and last
 * event's time are those of what is kept.
 */
export function repair(dir: string, summary: SessionSummary): { kept: Kept; summary: SessionSummary } {
  const size = (name: string) => {
    try {
      const fd = openSync(join(dir, name), 'r')
      try {
        return fstatSync(fd).size
      } finally {
        closeSync(fd)
      }
    } catch {
      return 0
    }
  }
  const eventsBytes = size('events.jsonl')
  const kept: Kept = { events: 0, payloads: size('payloads.bin'), frames: 0, logs: 0, others: 0 }
  const reader = new SessionReader(dir, summary)
  let lastTs = summary.startedAt
  try {
    for (const kind of CLASSES) {
      const index = reader.index(kind)
      let count = index.count
      // Records are written after their lines: the last ones may point past what reached the disk.
      while (count > 0) {
        const [last] = index.records(count - 1, 1)
        if (last.offset + last.length + 1 <= eventsBytes) {
          kept.events = Math.max(kept.events, last.offset + last.length + 1)
          lastTs = Math.max(lastTs, last.ts)
          break
        }
        count--
      }
      kept[kind] = count
    }
  } finally {
    reader.close()
  }
  return {
    kept,
    summary: {
      ...summary,
      events: kept.frames + kept.logs + kept.others,
      frames: kept.frames,
      logs: kept.logs,
      lastEventAt: lastTs,
      bytes: kept.events + kept.payloads,
    },
  }
}

export function readSummary(dir: string): SessionSummary | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as SessionSummary
  } catch {
    return undefined
  }
}

/** Written whole to a temporary name, then renamed over the old: a crash leaves the old or the new, never half. */
function writeSummary(dir: string, summary: SessionSummary): void {
  const path = join(dir, 'session.json')
  try {
    writeFileSync(`${path}.tmp`, JSON.stringify(summary), { mode: 0o600 })
    renameSync(`${path}.tmp`, path)
  } catch {
    // the disk refused: the files say what the summary would have (repair reads them)
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/**
 * A session read under another connection id (`session:<id>`, a past session opened in a UI): its events come
 * back under that id, so they fold into a view of their own beside the live connections.
 */
export class SessionView implements SessionFiles {
  constructor(
    /** The session's own files (a running session's writer, a past one's reader). */
    readonly files: SessionFiles,
    readonly viewId: string,
  ) {}

  get dir(): string {
    return this.files.dir
  }

  get keys(): KeyTable {
    return this.files.keys
  }

  get frameKeys(): KeyColumn {
    return this.files.frameKeys
  }

  index(kind: EventClass): IndexSource {
    return this.files.index(kind)
  }

  lines(records: IndexRecord[]): EngineEvent[] {
    return this.files.lines(records).map((event) => Object.assign(event, { connectionId: this.viewId }))
  }

  bytes(offset: number, length: number): Buffer {
    return this.files.bytes(offset, length)
  }

  payload(offset: number, length: number): string {
    return this.files.payload(offset, length)
  }
}
