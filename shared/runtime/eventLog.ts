import { firstAbove, type BacklogPage, type EngineEvent, type EventInput } from '../contract'
import { BacklogRows } from './backlogRows'
import { now } from './clock'
import { boundForUi } from './safeJson'

export type EventListener = (event: EngineEvent) => void

/**
 * The engine's append-only event stream: stamps `seq`/`ts`, keeps history for late subscribers (and, as
 * rows, for a UI catching up: `backlog`), and fans out to listeners. Appending is O(1); `since` and
 * `backlog` are binary searches plus slices.
 */
export class EventLog {
  private readonly events: EngineEvent[] = []
  private readonly rows = new BacklogRows()
  private readonly listeners = new Set<EventListener>()
  private seq = 0

  /**
   * Stamps and records `input`, which becomes the event itself (no copy: this runs once per frame).
   * Other events that carry agent data (a call's result, a conversation message, a catalog…) are kept,
   * and reach every UI and recording, as a bounded preview when they are very large or deeply nested
   * (frames bound themselves as they are tapped, and keep the whole text aside).
   */
  emit<E extends EngineEvent>(input: EventInput<E>): E {
    const event = (input.type === 'frame' ? input : boundForUi(input)) as unknown as E & { seq: number; ts: number }
    event.seq = ++this.seq
    event.ts ??= now()
    this.events.push(event)
    this.rows.add(event)
    for (const listener of this.listeners) {
      try {
        listener(event)
      } catch {
        // A faulty subscriber must not break the engine or the other subscribers.
      }
    }
    return event
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The events with `seq > afterSeq`, in order: all of them, or the first `limit`. */
  since(afterSeq: number, limit = Infinity): EngineEvent[] {
    const first = firstAbove(this.events.length, (i) => this.events[i].seq, afterSeq)
    return this.events.slice(first, first + limit)
  }

  /** The events after `afterSeq`, at most `limit`, as a UI's backlog page (shared/contract/backlog.ts). */
  backlog(afterSeq: number, limit = Infinity): BacklogPage {
    return this.rows.page(afterSeq, limit, this.seq)
  }

  /** The event numbered `seq` (events are numbered 1, 2, 3, … in the order kept). */
  at(seq: number): EngineEvent | undefined {
    return this.events[seq - 1]
  }

  get lastSeq(): number {
    return this.seq
  }
}
