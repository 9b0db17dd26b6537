import {
  encodeBacklog,
  firstAbove,
  FRAME_REST_FIELDS,
  payloadFolded,
  type BacklogPage,
  type EngineEvent,
  type FrameEvent,
  type FrameRest,
  type FrameRows,
  type FrameShape,
  type LogEvent,
  type LogRows,
  type LogShape,
} from '../contract'

/**
 * The event log's frames and log lines kept the way a UI's backlog carries them (shared/contract/backlog.ts),
 * a row at a time as they are emitted, so that a page of the backlog is a slice of columns: no walk over a
 * hundred thousand events the processor's caches forgot long ago. Every other event is kept aside, in order.
 */
export class BacklogRows {
  private readonly frames = new FrameTable()
  private readonly logs = new LogTable()
  private readonly others: EngineEvent[] = []

  add(event: EngineEvent): void {
    if (event.type === 'frame') this.frames.add(event)
    else if (event.type === 'log') this.logs.add(event)
    else this.others.push(event)
  }

  /** The events with `afterSeq < seq <= afterSeq + limit` of a log whose events are numbered 1 to `lastSeq`. */
  page(afterSeq: number, limit: number, lastSeq: number): BacklogPage {
    const toSeq = Math.max(afterSeq, Math.min(lastSeq, afterSeq + limit))
    return encodeBacklog({
      frames: this.frames.slice(afterSeq, toSeq),
      logs: this.logs.slice(afterSeq, toSeq),
      events: this.others.slice(this.firstOther(afterSeq), this.firstOther(toSeq)),
      lastSeq: toSeq,
      more: toSeq < lastSeq,
    })
  }

  private firstOther(seq: number): number {
    return firstAbove(this.others.length, (i) => this.others[i].seq, seq)
  }
}

/** Rows of one kind in columns, each row's shape numbered among the shapes seen so far. */
abstract class Table<S extends { connectionId: string }, Rows extends { shapes: S[]; seq: number[]; shape: number[] }> {
  protected abstract readonly rows: Rows
  private readonly byConnection = new Map<string, number[]>()
  private last = -1

  /** Whether `shape` is the one `event` has. */
  protected abstract same(shape: S, event: S): boolean
  protected abstract shapeOf(event: S): S

  /** The number of `event`'s shape: mostly the last row's, else one of its connection's, else a new one. */
  protected numberOf(event: S): number {
    const { shapes } = this.rows
    if (this.last !== -1 && this.same(shapes[this.last], event)) return this.last
    let known = this.byConnection.get(event.connectionId)
    if (!known) this.byConnection.set(event.connectionId, (known = []))
    const found = known.find((n) => this.same(shapes[n], event))
    if (found !== undefined) return (this.last = found)
    this.last = shapes.push(this.shapeOf(event)) - 1
    known.push(this.last)
    return this.last
  }

  /** The rows with `afterSeq < seq <= toSeq`, their shapes numbered anew for the page. */
  slice(afterSeq: number, toSeq: number): Rows {
    const seq = this.rows.seq
    const from = firstAbove(seq.length, (i) => seq[i], afterSeq)
    const to = firstAbove(seq.length, (i) => seq[i], toSeq)
    const page = Object.fromEntries(
      Object.entries(this.rows).map(([column, values]: [string, unknown[]]) => [column, column === 'shapes' ? [] : values.slice(from, to)]),
    ) as Rows
    const local = new Map<number, number>()
    page.shape = page.shape.map((n) => {
      let own = local.get(n)
      if (own === undefined) local.set(n, (own = page.shapes.push(this.rows.shapes[n]) - 1))
      return own
    })
    return page
  }
}

class FrameTable extends Table<FrameShape, FrameRows> {
  protected readonly rows: FrameRows = { shapes: [], seq: [], ts: [], shape: [], bytes: [], rest: [] }

  add(frame: FrameEvent): void {
    const rows = this.rows
    rows.shape.push(this.numberOf(frame))
    rows.seq.push(frame.seq)
    rows.ts.push(frame.ts)
    rows.bytes.push(frame.bytes)
    rows.rest.push(restOf(frame))
  }

  protected same(shape: FrameShape, frame: FrameShape): boolean {
    return (
      shape.method === frame.method &&
      shape.kind === frame.kind &&
      shape.direction === frame.direction &&
      shape.connectionId === frame.connectionId &&
      shape.protocol === frame.protocol &&
      shape.transport === frame.transport
    )
  }

  protected shapeOf({ connectionId, direction, protocol, transport, kind, method }: FrameShape): FrameShape {
    return { connectionId, direction, protocol, transport, kind, method }
  }
}

/** A frame's fields beyond its shape and columns, or 0 when it has none (a plain notification). */
function restOf(frame: FrameEvent): FrameRest | 0 {
  const folded = payloadFolded(frame)
  if (!folded && FRAME_REST_FIELDS.every((field) => frame[field] === undefined)) return 0
  // Every field by name, in one object literal (one layout, quick to make): the type asks for each field of
  // FRAME_REST_FIELDS, so one left out here does not compile. Undefined ones stay out of the JSON a page travels as.
  const rest: EveryField<FrameRest> = {
    id: frame.id,
    latencyMs: frame.latencyMs,
    requestSeq: frame.requestSeq,
    subject: frame.subject,
    probe: frame.probe,
    resendOf: frame.resendOf,
    truncated: frame.truncated,
    http: frame.http,
    view: frame.view,
    grpc: frame.grpc,
    payload: folded ? frame.payload : undefined,
  }
  return rest
}

/** `T` with every optional field named (its value may still be undefined). */
type EveryField<T> = { [K in keyof Required<T>]: T[K] }

class LogTable extends Table<LogShape, LogRows> {
  protected readonly rows: LogRows = { shapes: [], seq: [], ts: [], shape: [], frameSeq: [] }

  add(line: LogEvent): void {
    const rows = this.rows
    rows.shape.push(this.numberOf(line))
    rows.seq.push(line.seq)
    rows.ts.push(line.ts)
    rows.frameSeq.push(line.server?.frameSeq ?? null)
  }

  protected same(shape: LogShape, line: LogShape): boolean {
    return (
      shape.source === line.source &&
      shape.level === line.level &&
      shape.connectionId === line.connectionId &&
      !shape.oddity === !line.oddity &&
      shape.about === line.about &&
      !shape.server === !line.server &&
      shape.server?.level === line.server?.level &&
      shape.server?.logger === line.server?.logger
    )
  }

  protected shapeOf({ connectionId, source, level, oddity, about, server }: LogShape): LogShape {
    return {
      connectionId,
      source,
      level,
      oddity: oddity || undefined,
      ...(about && { about }),
      server: server && { level: server.level, logger: server.logger },
    }
  }
}
