import type { FrameEvent } from '../contract'

/** Any event on its way to the log; only frames are looked at. */
type FrameInput = { type: string }

/**
 * Links a resent request and its answers to the frame it repeats (`resendOf`), whatever the protocol's tap:
 * the next request of the expected method that goes out (a keepalive probe aside) is the resend, and every
 * frame answering it (`requestSeq`) is the resend's too. Bounded: the links of the last 1,000 resends.
 */
export class ResendMarks {
  private expected: { method: string; of: number } | undefined
  /** A resent request's seq → the seq it repeats. */
  private readonly sent = new Map<number, number>()
  private lastSent: number | undefined

  /** The next request of `method` is a resend of frame `of`; returns what to call when the resend is over. */
  expect(method: string, of: number): { requestSeq: () => number | undefined; done: () => void } {
    this.expected = { method, of }
    this.lastSent = undefined
    return {
      requestSeq: () => this.lastSent,
      done: () => {
        if (this.expected?.of === of) this.expected = undefined
      },
    }
  }

  /** Before a frame is emitted: a resend's answer gets its mark. */
  before(input: FrameInput): void {
    const frame = input as Partial<FrameEvent>
    if (input.type !== 'frame' || frame.requestSeq === undefined) return
    const of = this.sent.get(frame.requestSeq)
    if (of !== undefined) frame.resendOf = of
  }

  /** Before and after a request is emitted (it has its seq after): the expected one is marked and remembered. */
  mark(input: FrameInput): boolean {
    const expected = this.expected
    const frame = input as Partial<FrameEvent>
    if (!expected || input.type !== 'frame' || frame.direction !== 'out' || frame.kind !== 'request' || frame.probe) return false
    if (frame.method !== expected.method) return false
    frame.resendOf = expected.of
    this.expected = undefined
    return true
  }

  /** After a marked request was emitted, with its seq. */
  sentAs(seq: number, of: number): void {
    this.lastSent = seq
    this.sent.set(seq, of)
    if (this.sent.size > 1_000) this.sent.delete(this.sent.keys().next().value!)
  }
}
