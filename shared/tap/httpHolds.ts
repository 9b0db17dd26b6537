import type { EventInput } from '../contract'
import type { Way } from './chunkReader'
import { Holds } from './holds'

/** What the HTTP proxy asks before a body goes on, while breakpoints are on. */
export interface HttpGate {
  holding(way: Way): boolean
  /** Resolves with the body that goes on (as it was, or edited), or undefined when the user dropped it. */
  decide(way: Way, body: Buffer): Promise<Buffer | undefined>
}

/**
 * Hold in flight over HTTP: a JSON-RPC body the host posts (`out`) or a JSON answer (`in`) that matches the
 * breakpoints waits, whole, until it is released (as it was, or edited), dropped (the proxy then cuts that
 * exchange: an HTTP request cannot just vanish), or its time runs out. The same Holds as over stdio.
 */
export class HttpHolds implements HttpGate {
  private readonly waiting = new Map<number, (body: Buffer | undefined) => void>()
  readonly holds: Holds

  constructor(say: (event: EventInput) => void) {
    this.holds = new Holds(
      say,
      (_way, text, holdId) => this.settle(holdId, Buffer.from(text)),
      (holdId) => this.settle(holdId, undefined),
    )
  }

  holding(way: Way): boolean {
    return this.holds.holding(way)
  }

  decide(way: Way, body: Buffer): Promise<Buffer | undefined> {
    const holdId = this.holds.hold(way, body.toString('utf8'))
    if (holdId === undefined) return Promise.resolve(body)
    return new Promise((resolve) => this.waiting.set(holdId, resolve))
  }

  private settle(holdId: number, body: Buffer | undefined): void {
    this.waiting.get(holdId)?.(body)
    this.waiting.delete(holdId)
  }
}
