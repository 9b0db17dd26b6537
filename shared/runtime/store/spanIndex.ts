import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TIMELINE_LANES, type EngineEvent, type TimelineLaneId } from '../../contract'
import { temporaryFolderName } from '../frameSpill'
import { AppendFile, readAt } from './appendFile'
import { SpanBuilder, type BuiltSpan, type SpanMark } from './spanBuilder'
import { SpanLaneReader, SpanLaneWriter, type SpanLane, type SpanRecord } from './spanLanes'

/**
 * A session's spans on disk (`spans/` in its folder), written as the session is: a lane file of fixed records
 * each (spanLanes.ts), `labels.jsonl` (each label once, numbered as first seen), `extras.jsonl` (what a span
 * says beyond a label: its marks, a label past the table's size), and `complete` once the session ended and
 * every span is written. A session written before Parallax kept spans, or cut short by a crash, has its spans
 * built from its events on first reading (once; then kept).
 */
export interface SpanIndex {
  lane(id: TimelineLaneId): SpanLane | undefined
  label(n: number): string
  extra(record: SpanRecord): { label?: string; marks?: SpanMark[]; more?: number }
  /** Spans still open (a live session's): not yet in any lane file. */
  open(): BuiltSpan[]
}

const MAX_LABELS = 0xffff
/** A label number that says "the label is in the extras". */
export const LABEL_IN_EXTRA = 0xffff

const NO_EXTRA = { offset: 0, length: 0 }

/** A live session's spans: made from its events as they are appended (O(1) each), written with its batches. */
export class SpanIndexWriter implements SpanIndex {
  private readonly lanes = new Map<TimelineLaneId, SpanLaneWriter>()
  private readonly labels = new Map<string, number>()
  private readonly labelList: string[] = []
  private readonly labelFile: AppendFile
  private readonly extras: AppendFile
  private readonly builder = new SpanBuilder((span) => this.write(span))
  private broken = false

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    this.labelFile = new AppendFile(join(dir, 'labels.jsonl'))
    this.extras = new AppendFile(join(dir, 'extras.jsonl'))
  }

  add(event: EngineEvent): void {
    if (this.broken) return
    try {
      this.builder.add(event)
    } catch {
      // spans are a view of the events: a failure here leaves them to be built again from the events when read
      this.broken = true
    }
  }

  lane(id: TimelineLaneId): SpanLane | undefined {
    return this.lanes.get(id)
  }

  label(n: number): string {
    return this.labelList[n] ?? ''
  }

  extra(record: SpanRecord): { label?: string; marks?: SpanMark[]; more?: number } {
    if (!record.extraLength) return {}
    return JSON.parse(this.extras.read(record.extraOffset, record.extraLength).toString('utf8')) as never
  }

  open(): BuiltSpan[] {
    return this.builder.open()
  }

  flush(): void {
    this.labelFile.flush()
    this.extras.flush()
    for (const lane of this.lanes.values()) lane.flush()
  }

  /** The session ended: spans still open are written as they are, and the index is said to be whole. */
  close(at?: number): void {
    if (!this.broken) this.builder.close(at)
    this.labelFile.close()
    this.extras.close()
    for (const lane of this.lanes.values()) lane.close()
    const failed = this.broken || this.labelFile.error || this.extras.error || [...this.lanes.values()].some((l) => l.error)
    if (!failed)
      try {
        writeFileSync(join(this.dir, 'complete'), '')
      } catch {
        // built again from the events when read
      }
  }

  private write(span: BuiltSpan): void {
    let lane = this.lanes.get(span.lane)
    if (!lane) {
      lane = new SpanLaneWriter(join(this.dir, span.lane))
      this.lanes.set(span.lane, lane)
    }
    let label = this.labels.get(span.label)
    if (label === undefined && this.labelList.length < MAX_LABELS) {
      label = this.labelList.push(span.label) - 1
      this.labels.set(span.label, label)
      this.labelFile.append(Buffer.from(`${JSON.stringify(span.label)}\n`))
    }
    // Most spans are a label alone: only those with more say it in a line of the extras.
    const where =
      label === undefined || span.marks?.length
        ? this.extras.appendLine(
            JSON.stringify({
              ...(label === undefined && { label: span.label }),
              ...(span.marks?.length && { marks: span.marks }),
              ...(span.marksDropped && { more: span.marksDropped }),
            }),
          )
        : NO_EXTRA
    lane.add({
      at: span.end ?? span.writtenAt ?? span.start,
      start: span.start,
      end: span.end ?? NaN,
      seq: span.seq,
      endSeq: span.endSeq ?? NaN,
      extraOffset: where.offset,
      extraLength: where.length,
      label: label ?? LABEL_IN_EXTRA,
      outcome: span.outcome,
    })
  }
}

/** A past session's spans, read where they lie. */
export class SpanIndexReader implements SpanIndex {
  private readonly lanes = new Map<TimelineLaneId, SpanLaneReader>()
  private readonly labelList: string[]
  private readonly extrasFd: number | undefined

  constructor(
    readonly dir: string,
    /** A temporary folder the index was built into, removed when it is closed. */
    private readonly temporary?: string,
  ) {
    for (const id of TIMELINE_LANES) if (existsSync(join(dir, `${id}.idx`))) this.lanes.set(id, new SpanLaneReader(join(dir, id)))
    this.labelList = readLines(join(dir, 'labels.jsonl')).map((line) => JSON.parse(line) as string)
    try {
      this.extrasFd = openSync(join(dir, 'extras.jsonl'), 'r')
    } catch {
      this.extrasFd = undefined
    }
  }

  lane(id: TimelineLaneId): SpanLane | undefined {
    return this.lanes.get(id)
  }

  label(n: number): string {
    return this.labelList[n] ?? ''
  }

  extra(record: SpanRecord): { label?: string; marks?: SpanMark[]; more?: number } {
    if (!record.extraLength || this.extrasFd === undefined) return {}
    return JSON.parse(readAt(this.extrasFd, record.extraOffset, record.extraLength).toString('utf8')) as never
  }

  open(): BuiltSpan[] {
    return []
  }

  close(): void {
    for (const lane of this.lanes.values()) lane.close()
    if (this.extrasFd !== undefined) closeSync(this.extrasFd)
    if (this.temporary) rmSync(this.temporary, { recursive: true, force: true })
  }
}

/**
 * A finished session's spans: read as they lie when its index is whole, else built from its events first (a
 * session from before spans were kept, or one a crash cut short) into a folder of their own, then put in place.
 * A session another process is still writing (a tap running now), or one whose folder refuses the index, has
 * its spans built into a temporary folder instead, removed when they are closed: its own folder is never touched.
 */
export function openSpanIndex(
  sessionDir: string,
  walk: (each: (event: EngineEvent) => void) => void,
  writtenElsewhere = false,
): SpanIndexReader {
  const dir = join(sessionDir, 'spans')
  if (!writtenElsewhere && existsSync(join(dir, 'complete'))) return new SpanIndexReader(dir)
  if (!writtenElsewhere) {
    const building = join(sessionDir, `spans.building-${process.pid}`)
    try {
      rmSync(building, { recursive: true, force: true })
      build(building, walk)
      rmSync(dir, { recursive: true, force: true })
      renameSync(building, dir)
      return new SpanIndexReader(dir)
    } catch {
      rmSync(building, { recursive: true, force: true })
    }
  }
  const temporary = mkdtempSync(join(tmpdir(), temporaryFolderName('spans')))
  try {
    build(join(temporary, 'spans'), walk)
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true })
    throw error
  }
  return new SpanIndexReader(join(temporary, 'spans'), temporary)
}

function build(dir: string, walk: (each: (event: EngineEvent) => void) => void): void {
  const writer = new SpanIndexWriter(dir)
  walk((event) => writer.add(event))
  writer.close()
  if (!existsSync(join(dir, 'complete'))) throw new Error(`the spans of ${dir} could not be written`)
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean)
  } catch {
    return []
  }
}
