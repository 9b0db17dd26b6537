import type { EventInput, TapBreakpoints } from '../contract'
import { now } from '../runtime/clock'
import type { Way } from './chunkReader'
import type { LineGate } from './stdioRelay'

/** Breakpoints as a tap starts: off. */
export const NO_BREAKPOINTS: TapBreakpoints = { on: false, methods: [], tools: [], directions: ['out', 'in'], timeoutMs: 30_000 }
/** The longest a message may be held (a forgotten hold must not hang a host for ever). */
export const MAX_HOLD_MS = 10 * 60_000

interface Held {
  way: Way
  line: string
  timer: ReturnType<typeof setTimeout>
}

/**
 * Hold in flight (opt-in, off by default): while breakpoints are on, each whole line going the chosen ways is
 * read before it goes on, and a message whose method (or tool, for `tools/call`) matches is held — said as a
 * `hold` event — until the user releases it (as it was, or edited), drops it, or its time runs out and it goes
 * on as it was. Other messages pass in order. Turning breakpoints off releases everything held.
 */
export class Holds implements LineGate {
  private breakpoints: TapBreakpoints = NO_BREAKPOINTS
  private readonly held = new Map<number, Held>()
  private next = 0

  constructor(
    private readonly say: (event: EventInput) => void,
    /** Hands a message on (the relay's `send`): what was held, released now, as text. */
    private readonly send: (way: Way, text: string, holdId: number) => void,
    /** Told when a held message was dropped (an HTTP tap then cuts its exchange). */
    private readonly dropped: (holdId: number) => void = () => {},
  ) {}

  set(breakpoints: TapBreakpoints): void {
    this.breakpoints = { ...breakpoints, timeoutMs: Math.min(Math.max(breakpoints.timeoutMs, 100), MAX_HOLD_MS) }
    this.event({ state: 'breakpoints', breakpoints: this.breakpoints })
    if (!this.breakpoints.on) for (const id of [...this.held.keys()]) this.release(id, 'user')
  }

  holding(way: Way): boolean {
    return this.breakpoints.on && this.breakpoints.directions.includes(way)
  }

  pass(way: Way, line: string): boolean {
    return this.hold(way, line) === undefined
  }

  /** Holds a message (its whole text) when it matches: its hold's number, else undefined (it goes on). */
  hold(way: Way, line: string): number | undefined {
    let message: { method?: unknown; params?: { name?: unknown } }
    try {
      message = JSON.parse(line) as typeof message
    } catch {
      return undefined
    }
    if (!message || typeof message !== 'object' || typeof message.method !== 'string' || !this.matches(message.method, message.params))
      return undefined
    const holdId = ++this.next
    const timer = setTimeout(() => this.release(holdId, 'timeout'), this.breakpoints.timeoutMs)
    timer.unref()
    this.held.set(holdId, { way, line, timer })
    this.event({ state: 'held', holdId, direction: way, method: message.method, message, releaseAt: now() + this.breakpoints.timeoutMs })
    return holdId
  }

  /** Sends a held message on: as it was, or as the user edited it. False when nothing is held by that number. */
  release(holdId: number, by: 'user' | 'timeout', edited?: unknown): boolean {
    const held = this.take(holdId)
    if (!held) return false
    this.send(held.way, edited === undefined ? held.line : JSON.stringify(edited), holdId)
    this.event({ state: 'released', holdId, direction: held.way, by, ...(edited !== undefined && { edited: true }) })
    return true
  }

  drop(holdId: number): boolean {
    const held = this.take(holdId)
    if (!held) return false
    this.event({ state: 'dropped', holdId, direction: held.way, by: 'user' })
    this.dropped(holdId)
    return true
  }

  /** The tap ends: what is still held goes on as it was (the host should not lose a message to the tap's end). */
  dispose(): void {
    for (const id of [...this.held.keys()]) this.release(id, 'timeout')
  }

  private matches(method: string, params: { name?: unknown } | undefined): boolean {
    const { methods, tools } = this.breakpoints
    if (tools.length > 0 && method === 'tools/call') return tools.includes(String(params?.name))
    return methods.length === 0 ? tools.length === 0 : methods.includes(method)
  }

  private take(holdId: number): Held | undefined {
    const held = this.held.get(holdId)
    if (!held) return undefined
    clearTimeout(held.timer)
    this.held.delete(holdId)
    return held
  }

  private event(fields: Omit<Extract<EventInput, { type: 'hold' }>, 'type' | 'connectionId'>): void {
    this.say({ type: 'hold', connectionId: '', ...fields } as EventInput)
  }
}
