import type { BacklogPage, EngineEvent, EventInput } from '../contract'
import { now } from './clock'
import { boundForUi } from './safeJson'
import { backlogPage } from './store/backlogPages'
import { eventsSince } from './store/runEvents'
import { classOf } from './store/sessionFiles'
import { firstRecordAbove } from './store/sessionIndex'
import { contextKey } from './store/sessionReads'
import { SessionStore } from './store/sessionStore'

export type EventListener = (event: EngineEvent) => void

/** The latest events kept in memory: what listeners and views ask for most, without reading the disk. */
const RECENT = 4096
/** Finished connections whose state (their context) stays at hand; older ones are read back from their session. */
const FINISHED_CONTEXTS = 256

/**
 * The engine's append-only event stream: stamps `seq`/`ts`, writes every event to its connection's session on
 * disk (runtime/store: the store is the log), keeps only the latest few thousand in memory, and fans out to
 * listeners. Appending is O(1) and memory does not grow with the number of events; everything older is read
 * back through the store's indexes (`since`, `at`, `eventsOf`) in O(log n) to find it.
 */
export class EventLog {
  private readonly recent: EngineEvent[] = new Array(RECENT)
  private readonly listeners = new Set<EventListener>()
  /** Each connection's state now: its latest connection event, handshake, hooks and discovery step of each list. */
  private readonly contexts = new Map<string, Map<string, EngineEvent>>()
  private readonly finished: string[] = []
  private seq = 0
  readonly store: SessionStore

  constructor(store?: SessionStore) {
    this.store = store ?? new SessionStore({ host: 'engine' })
    // A session that can no longer be written (a full disk) says so in its own log, once.
    this.store.onFailure = (connectionId, why) => this.emit({ type: 'log', connectionId, source: 'engine', level: 'error', text: why })
  }

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
    this.recent[event.seq % RECENT] = event
    this.remember(event)
    try {
      this.store.append(event)
    } catch {
      // the store keeps its own failures (SessionStore.failures); the session goes on in memory
    }
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

  /** The events with `seq > afterSeq`, in order: all of them, or the first `limit` (from memory when recent, else from the store). */
  since(afterSeq: number, limit = Infinity): EngineEvent[] {
    const oldest = Math.max(1, this.seq - RECENT + 1)
    if (afterSeq + 1 >= oldest) {
      const out: EngineEvent[] = []
      for (let seq = afterSeq + 1; seq <= this.seq && out.length < limit; seq++) out.push(this.recent[seq % RECENT])
      return out
    }
    this.store.flush()
    return eventsSince(this.store.runSessions(), afterSeq, Math.min(limit, this.seq - afterSeq))
  }

  /** A UI's catch-up after `afterSeq`, at most `limit` events and rows (runtime/store/backlogPages.ts). */
  backlog(afterSeq: number, limit = 50_000): BacklogPage {
    this.store.flush()
    const sessions = this.store
      .connectionIds()
      .map((connectionId) => ({ connectionId, files: this.store.files(connectionId)! }))
      .filter(({ files }) => files !== undefined)
    return backlogPage(sessions, afterSeq, limit, this.seq)
  }

  /**
   * The event numbered `seq` (of `connectionId`'s session when given: a look in one session instead of all; a past
   * session's numbers are its own run's, so they may lie past this run's).
   */
  at(seq: number, connectionId?: string): EngineEvent | undefined {
    if (seq < 1 || (connectionId === undefined && seq > this.seq)) return undefined
    if (seq <= this.seq && seq > this.seq - RECENT) {
      const event = this.recent[seq % RECENT]
      if (connectionId === undefined || event.connectionId === connectionId) return event
    }
    this.store.flush()
    const sessions = connectionId === undefined ? this.store.runSessions() : [this.store.files(connectionId)].filter((f) => f !== undefined)
    for (const files of sessions)
      for (const kind of ['frames', 'logs', 'others'] as const) {
        const index = files.index(kind)
        const at = firstRecordAbove(index, 'seq', seq - 1)
        if (at < index.count) {
          const [record] = index.records(at, 1)
          if (record.seq === seq) return files.lines([record])[0]
        }
      }
    return undefined
  }

  /** Every event of one connection, in order (for the short-lived: a compare's sides, a replay's results). */
  eventsOf(connectionId: string): EngineEvent[] {
    const files = this.store.files(connectionId)
    if (!files) return []
    this.store.flush()
    return eventsSince([files], 0, Infinity)
  }

  /**
   * A connection's state now, as a recording's context (docs/architecture.md, "Recordings"): its latest
   * connection event, handshake and hooks, and the latest discovery step of each list, in the order they happened.
   */
  context(connectionId: string): EngineEvent[] {
    return [...(this.contexts.get(connectionId)?.values() ?? [])].sort((a, b) => a.seq - b.seq)
  }

  /** The connection's latest `connection` event. */
  lastState(connectionId: string): Extract<EngineEvent, { type: 'connection' }> | undefined {
    const event = this.contexts.get(connectionId)?.get('connection')
    return event?.type === 'connection' ? event : undefined
  }

  get lastSeq(): number {
    return this.seq
  }

  private remember(event: EngineEvent): void {
    const key = contextKey(event)
    if (!key) return
    let context = this.contexts.get(event.connectionId)
    if (!context) this.contexts.set(event.connectionId, (context = new Map()))
    context.set(key, event)
    if (event.type === 'connection' && (event.state === 'closed' || event.state === 'failed')) {
      this.finished.push(event.connectionId)
      if (this.finished.length > FINISHED_CONTEXTS) this.contexts.delete(this.finished.shift()!)
    }
  }
}

/** Whether an event is one of the bulk kinds kept as rows (frames, log lines). */
export function isBulk(event: EngineEvent): boolean {
  return classOf(event) !== 'others'
}
