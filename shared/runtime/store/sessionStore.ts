import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_RETENTION_BYTES, type EngineEvent, type FramesFilter, type ListedSession, type SessionSummary } from '../../contract'
import { FrameMatches } from './frameQuery'
import { temporaryFolderName } from '../frameSpill'
import { ownerRunning, startMarker } from '../processLife'
import { REDACTION_MAX_DEPTH, Redactor } from '../redaction'
import { jsonOf, keepText } from '../serialized'
import { readSummary, repair, SessionReader, SessionView, SessionWriter, type SessionFiles } from './sessionFiles'
import { openSpanIndex, type SpanIndex, type SpanIndexReader } from './spanIndex'
import { walkSession } from './sessionReads'

export interface SessionStoreOptions {
  /** The folder sessions live in (`<data folder>/sessions`); omitted: a temporary one, removed with the store. */
  dir?: string
  /** The host the engine runs in, said in each session's summary. */
  host: string
  /** Extra key names redacted, besides authorization, cookies, tokens and keys. */
  secretKeys?: readonly string[]
  /** How much the folder may hold (oldest finished sessions go first). */
  retentionBytes?: number
}

/** A live session: its files, and the redactor that learns its secrets as they come. */
interface Live {
  writer: SessionWriter
  redactor: Redactor
}

/** How often what waits is written: a crash loses at most this much. */
const FLUSH_MS = 50
/** How a past session is named where a connection would be: `session:<its id>`. */
export const SESSION_VIEW = 'session:'
/** Sessions this process has begun, whatever store: the last part of each one's id. */
let sessionsMade = 0
/** How much is written between two checks of the folder's size against the retention limit. */
const RETENTION_EVERY_BYTES = 64 * 1024 * 1024
/** Ended sessions kept open for reading at once (each holds a few file descriptors). */
const OPEN_READERS = 32
/** What one session may hold in memory before it is written at once. */
const BATCH_BYTES = 4 * 1024 * 1024

/**
 * Every event of every connection, on disk as it happens: a session a connection (sessionFiles.ts), redacted
 * before it is written, in the data folder's `sessions/`. Memory holds what waits to be written (a few tens of
 * milliseconds' worth) and each live session's small state; everything else is read back when asked. Sessions
 * outlive the app: at start, one a crash cut short is found (its writer no longer running), its torn tail cut,
 * and it is said to be cut short. The folder is kept within `retentionBytes`, oldest finished sessions first.
 * A disk that refuses a write stops that session's writing (`error`): nothing written is lost.
 */
export class SessionStore {
  readonly dir: string
  private readonly temporary: boolean
  private readonly live = new Map<string, Live>()
  private readonly timer: ReturnType<typeof setInterval>
  /** The sessions of this store's connections by connection id, running or ended, for reading back. */
  private readonly ofConnection = new Map<string, string>()
  /** The last filter asked of each connection's frames, and what it let through (least recently used first). */
  private readonly queries = new Map<string, FrameMatches>()
  /** Ended sessions of this run open for reading, least recently used first. */
  private readonly readers = new Map<string, SessionReader>()
  /** Finished sessions' spans open for reading, by folder, least recently used first. */
  private readonly spanReaders = new Map<string, { reader: SpanIndexReader; size: number }>()
  private readonly writerId = { pid: process.pid, start: startMarker(process.pid) }
  private readonly stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  retentionBytes: number
  private sinceRetention = 0
  /** Told once when a connection's session can no longer be kept on disk, with why (the event log says it in that connection's log). */
  onFailure: ((connectionId: string, why: string) => void) | undefined
  /** Sessions whose writing stopped, and why (reported once each). */
  readonly failures = new Map<string, string>()

  constructor(private readonly options: SessionStoreOptions) {
    this.temporary = options.dir === undefined
    this.dir = options.dir ?? mkdtempSync(join(tmpdir(), temporaryFolderName('sessions')))
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    this.retentionBytes = options.retentionBytes ?? this.keptRetention() ?? DEFAULT_RETENTION_BYTES
    this.timer = setInterval(() => this.flush(), FLUSH_MS)
    this.timer.unref()
    if (!this.temporary) this.recover()
  }

  /** Appends an event to its connection's session (made on its first event). */
  append(event: EngineEvent, whole?: unknown): void {
    const live = this.live.get(event.connectionId) ?? this.begin(event)
    if (!live) return
    const stored = live.redactor.redact(whole === undefined ? event : { ...event, payload: whole })
    const line = jsonOf(stored, REDACTION_MAX_DEPTH + 16)
    // Nothing redacted: the line is the event's own JSON, which a host sending it to a UI can use as it is.
    if (stored === event) keepText(event, line)
    live.writer.append(event, line)
    if (event.type === 'connection') {
      const summary = live.writer.summary
      summary.targetId = event.targetId
      summary.targetName = event.targetName
      summary.protocol = event.protocol
      summary.transport = event.transport ?? summary.transport
      summary.owner = event.owner
      if (event.state === 'closed' || event.state === 'failed') this.end(event.connectionId, event.state, event.reason)
      else live.writer.writeSummary()
    } else if (live.writer.pending > BATCH_BYTES) this.flushOne(event.connectionId, live)
  }

  /** Keeps a frame's whole text in its connection's session; where it is (`wholePayload` reads it), or undefined when it cannot be kept. */
  keepPayload(connectionId: string, text: string): string | undefined {
    const live = this.live.get(connectionId)
    if (!live || live.writer.error) return undefined
    const { offset, length } = live.writer.keepPayload(text)
    return `payloads.bin#${offset}+${length}`
  }

  /**
   * The files of a connection's session in this run (its writer while it runs, then its files as they lie), or of
   * a past session opened by its id (`session:<id>`, as `SESSION_VIEW` names it).
   */
  files(connectionId: string): SessionFiles | undefined {
    const live = this.live.get(connectionId)?.writer
    if (live) return live
    if (connectionId.startsWith(SESSION_VIEW)) {
      const files = this.byId(connectionId.slice(SESSION_VIEW.length))
      return files && new SessionView(files, connectionId)
    }
    const id = this.ofConnection.get(connectionId)
    return id === undefined ? undefined : this.byId(id)
  }

  /** A session by its id: its writer while it runs here, else its files as they lie (kept open, least recently used closed first). */
  private byId(id: string): SessionFiles | undefined {
    const running = [...this.live.values()].find((l) => l.writer.summary.id === id)
    if (running) return running.writer
    let reader = this.readers.get(id)
    if (reader) {
      this.readers.delete(id) // most recently used last
      this.readers.set(id, reader)
      return reader
    }
    let dir: string
    try {
      dir = this.folder(id)
    } catch {
      return undefined
    }
    const summary = readSummary(dir)
    if (!summary) return undefined
    reader = new SessionReader(dir, summary)
    this.readers.set(id, reader)
    if (this.readers.size > OPEN_READERS) {
      const [oldest, first] = this.readers.entries().next().value!
      first.close()
      this.readers.delete(oldest)
    }
    return reader
  }

  /**
   * The spans of a connection's session (as `files` resolves it): a running session's as they are written, a
   * finished one's as they lie (built from its events on first reading when it has none yet, then kept).
   */
  spans(connectionId: string): SpanIndex | undefined {
    const found = this.files(connectionId)
    if (!found) return undefined
    const files = found instanceof SessionView ? found.files : found
    if (files instanceof SessionWriter && files.spans) {
      files.flush()
      return files.spans
    }
    // A session another process writes now (a tap running): its spans as far as its events go, built again once it has more.
    const summary = readSummary(files.dir)
    const elsewhere = summary?.writer !== undefined && !summary.ended && ownerRunning(summary.writer.pid, summary.writer.start)
    const size = elsewhere ? files.index('frames').count + files.index('logs').count + files.index('others').count : 0
    let open = this.spanReaders.get(files.dir)
    if (open && open.size !== size) {
      this.closeSpans(files.dir)
      open = undefined
    }
    if (open) this.spanReaders.delete(files.dir)
    else open = { reader: openSpanIndex(files.dir, (each) => walkSession(files, each), elsewhere), size }
    this.spanReaders.set(files.dir, open)
    if (this.spanReaders.size > OPEN_READERS) this.closeSpans(this.spanReaders.keys().next().value!)
    return open.reader
  }

  private closeSpans(dir: string): void {
    this.spanReaders.get(dir)?.reader.close()
    this.spanReaders.delete(dir)
  }

  /** The frames of a connection's session a filter lets through (kept for the next ask with the same filter, extended as frames come). */
  frameMatches(connectionId: string, filter: FramesFilter): FrameMatches {
    const files = this.files(connectionId)
    if (!files) throw new Error(`no session of connection "${connectionId}"`)
    let matches = this.queries.get(connectionId)
    if (!matches || matches.files.dir !== files.dir || JSON.stringify(matches.filter) !== JSON.stringify(filter)) {
      matches = new FrameMatches(files, filter)
      this.queries.delete(connectionId)
      this.queries.set(connectionId, matches)
      if (this.queries.size > OPEN_READERS) this.queries.delete(this.queries.keys().next().value!)
    }
    if (files instanceof SessionWriter) files.flush()
    matches.update()
    return matches
  }

  /** A frame's whole payload text, kept aside for its size (`truncated.file`: where keepPayload put it). */
  wholePayload(connectionId: string, ref: string): string {
    const at = /^payloads\.bin#(\d+)\+(\d+)$/.exec(ref)
    const files = this.files(connectionId)
    if (!at || !files) throw new Error('that payload is not kept in this session')
    return files.payload(Number(at[1]), Number(at[2]))
  }

  /** The connections this run has kept sessions for, in the order they began. */
  connectionIds(): string[] {
    return [...this.ofConnection.keys()]
  }

  /** The sessions of this run (every connection the engine has had), for reading back across them. */
  runSessions(): SessionFiles[] {
    return this.connectionIds()
      .map((id) => this.files(id))
      .filter((files) => files !== undefined)
  }

  /** The session a connection of this run wrote. */
  sessionOf(connectionId: string): string | undefined {
    return this.ofConnection.get(connectionId)
  }

  /** Opens a session for reading: the live writer when it is running here, else its files as they lie. */
  open(id: string): { files: SessionFiles; close(): void } {
    for (const live of this.live.values()) if (live.writer.summary.id === id) return { files: live.writer, close: () => {} }
    const dir = this.folder(id)
    const summary = readSummary(dir)
    if (!summary) throw new Error(`no session "${id}"`)
    const reader = new SessionReader(dir, summary)
    return { files: reader, close: () => reader.close() }
  }

  list(): ListedSession[] {
    const running = new Set([...this.live.values()].map((l) => l.writer.summary.id))
    const out: ListedSession[] = []
    for (const name of this.names()) {
      const live = [...this.live.values()].find((l) => l.writer.summary.id === name)
      const summary = live ? { ...live.writer.summary } : readSummary(join(this.dir, name))
      if (summary) out.push({ ...summary, running: running.has(name) })
    }
    return out.sort((a, b) => b.startedAt - a.startedAt)
  }

  /** Removes a finished session; a running one is refused. */
  delete(id: string): boolean {
    if ([...this.live.values()].some((l) => l.writer.summary.id === id))
      throw new Error('this session is running: close its connection first')
    const dir = this.folder(id)
    if (!readSummary(dir)) return false
    this.readers.get(id)?.close()
    this.readers.delete(id)
    this.closeSpans(dir)
    rmSync(dir, { recursive: true, force: true })
    return true
  }

  flush(): void {
    let written = 0
    for (const [connectionId, live] of this.live) {
      written += live.writer.pending
      this.flushOne(connectionId, live)
    }
    // A long run keeps the folder within its size as it goes, not only at the next start.
    this.sinceRetention += written
    if (this.sinceRetention > RETENTION_EVERY_BYTES && !this.temporary) {
      this.sinceRetention = 0
      this.enforceRetention()
    }
  }

  /** Sets (and keeps, in the folder's retention.json) how much the folder may hold; what is over goes now. Returns the ids removed. */
  setRetention(bytes: number): string[] {
    this.retentionBytes = bytes
    if (!this.temporary)
      try {
        writeFileSync(join(this.dir, 'retention.json'), JSON.stringify({ bytes }), { mode: 0o600 })
      } catch {
        // kept for this run only
      }
    return this.enforceRetention()
  }

  private keptRetention(): number | undefined {
    try {
      const { bytes } = JSON.parse(readFileSync(join(this.dir, 'retention.json'), 'utf8')) as { bytes?: unknown }
      return typeof bytes === 'number' && bytes > 0 ? bytes : undefined
    } catch {
      return undefined
    }
  }

  /** Keeps the folder within its size, oldest finished sessions first. Returns the ids removed. */
  enforceRetention(): string[] {
    const sessions = this.list()
    let total = sessions.reduce((sum, s) => sum + s.bytes, 0)
    const removed: string[] = []
    for (const session of [...sessions].reverse()) {
      if (total <= this.retentionBytes) break
      if (session.running) continue
      this.readers.get(session.id)?.close()
      this.readers.delete(session.id)
      this.closeSpans(this.folder(session.id))
      rmSync(this.folder(session.id), { recursive: true, force: true })
      total -= session.bytes
      removed.push(session.id)
    }
    return removed
  }

  /** Ends every live session (the engine stops): each is said to be closed as its connection was last. */
  dispose(): void {
    clearInterval(this.timer)
    for (const connectionId of [...this.live.keys()]) this.end(connectionId, 'closed')
    for (const reader of this.readers.values()) reader.close()
    this.readers.clear()
    for (const dir of [...this.spanReaders.keys()]) this.closeSpans(dir)
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true })
  }

  private begin(event: EngineEvent): Live | undefined {
    if (this.failures.has(event.connectionId)) return undefined
    // Numbered across the process (two engines in one process each make sessions), so ids never meet.
    const id = `${this.stamp}-${process.pid}-${++sessionsMade}`
    const dir = join(this.dir, id)
    const summary: SessionSummary = {
      id,
      connectionId: event.connectionId,
      targetId: '',
      targetName: '',
      host: this.options.host,
      startedAt: event.ts,
      lastEventAt: event.ts,
      events: 0,
      frames: 0,
      logs: 0,
      bytes: 0,
      writer: this.writerId,
    }
    try {
      mkdirSync(dir, { mode: 0o700 })
      const live = { writer: new SessionWriter(dir, summary), redactor: new Redactor(this.options.secretKeys) }
      this.live.set(event.connectionId, live)
      this.ofConnection.set(event.connectionId, id)
      return live
    } catch (error) {
      this.fail(event.connectionId, (error as Error).message)
      return undefined
    }
  }

  private flushOne(connectionId: string, live: Live): void {
    live.writer.flush()
    const error = live.writer.error
    if (error && !this.failures.has(connectionId)) {
      this.live.delete(connectionId)
      live.writer.close({})
      // What reached the disk is the session: its torn tail cut, its counts those of what is kept.
      this.seal(live.writer.dir, live.writer.summary, { ended: 'cut-short', reason: error })
      this.fail(connectionId, error)
    }
  }

  /** Ends a session that was not closed as it went (cut short by a crash or a full disk): repaired, and said so. */
  private seal(dir: string, summary: SessionSummary, ended: { ended: 'cut-short'; reason: string; endedAt?: number }): void {
    try {
      const { kept, summary: repaired } = repair(dir, summary)
      delete repaired.writer
      new SessionWriter(dir, repaired, kept).close({ endedAt: repaired.lastEventAt, ...ended })
    } catch {
      // unreadable: listed as it is
    }
  }

  private fail(connectionId: string, error: string): void {
    const full = /ENOSPC|EFBIG|EDQUOT/.exec(error)
    const why = `Parallax stopped keeping this session on disk: ${full ? `the disk is full (${full[0]})` : error}. What it wrote before is kept; the session goes on, shown but no longer written`
    this.failures.set(connectionId, why)
    this.onFailure?.(connectionId, why)
  }

  private end(connectionId: string, state: 'closed' | 'failed', reason?: string): void {
    const live = this.live.get(connectionId)
    if (!live) return
    this.live.delete(connectionId)
    delete live.writer.summary.writer // no longer written: nobody's to cut short
    live.writer.close({ ended: state, endedAt: live.writer.summary.lastEventAt, ...(reason && { reason }) })
    this.sinceRetention = RETENTION_EVERY_BYTES + 1 // the next flush checks the folder's size
  }

  /** Sessions a process that is gone left running: cut short. Their torn tails are cut, their summaries made true. */
  private recover(): void {
    for (const name of this.names()) {
      const dir = join(this.dir, name)
      const summary = readSummary(dir)
      if (!summary || summary.ended || !summary.writer) continue
      if (ownerRunning(summary.writer.pid, summary.writer.start)) continue
      this.seal(dir, summary, { ended: 'cut-short', reason: 'Parallax stopped without closing it (a crash or a kill)' })
    }
    this.enforceRetention()
  }

  private names(): string[] {
    try {
      return readdirSync(this.dir).filter((name) => /^\d{8}T\d{6}Z-\d+-\d+$/.test(name))
    } catch {
      return []
    }
  }

  private folder(id: string): string {
    if (!/^\d{8}T\d{6}Z-\d+-\d+$/.test(id)) throw new Error(`no session "${id}"`)
    return join(this.dir, id)
  }
}
