import type { FrameEvent, FrameKind, Protocol, TransportKind } from '../contract'
import { now } from './eventLog'
import type { FrameSpill } from './frameSpill'

export type TappedFrame = Omit<FrameEvent, 'seq' | 'connectionId'>
export type FrameSink = (frame: TappedFrame) => void

type JsonRpcLike = { id?: string | number | null; method?: unknown; result?: unknown; error?: unknown }

/**
 * Turns JSON-RPC messages into `frame` events: classifies each one, measures its size, and pairs
 * every response with the request that went the other way to give its latency.
 */
export class JsonRpcTap {
  /** Outstanding requests keyed by the direction they travelled and their id. */
  private readonly pending = new Map<string, { ts: number; method: string }>()

  constructor(
    private readonly protocol: Protocol,
    public transport: TransportKind,
    private readonly sink: FrameSink,
    private readonly spill?: FrameSpill,
  ) {}

  record(direction: 'out' | 'in', message: unknown, ts = now()): TappedFrame {
    const msg = (message ?? {}) as JsonRpcLike
    const kind = classify(msg)
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined
    let method = typeof msg.method === 'string' ? msg.method : undefined
    let latencyMs: number | undefined
    if (kind === 'request' && id !== undefined) {
      this.pending.set(`${direction}:${id}`, { ts, method: method! })
    } else if ((kind === 'response' || kind === 'error') && id !== undefined) {
      const key = `${direction === 'in' ? 'out' : 'in'}:${id}`
      const request = this.pending.get(key)
      if (request) {
        this.pending.delete(key)
        latencyMs = ts - request.ts
        method = request.method
      }
    }
    const text = jsonText(message)
    const size = Buffer.byteLength(text)
    const oversized = this.spill?.spill(text, size)
    const frame: TappedFrame = {
      type: 'frame',
      ts,
      direction,
      protocol: this.protocol,
      transport: this.transport,
      kind,
      method,
      id,
      payload: oversized ? oversized.preview : message,
      bytes: size,
      latencyMs,
      ...(oversized && { truncated: oversized.truncated }),
    }
    this.sink(frame)
    return frame
  }

  /** Forget unanswered requests (after a reconnect, ids start again). */
  reset(): void {
    this.pending.clear()
  }
}

function classify(msg: JsonRpcLike): FrameKind {
  if (typeof msg.method === 'string') return msg.id === undefined || msg.id === null ? 'notification' : 'request'
  if (msg.error !== undefined) return 'error'
  return 'response'
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return '' // cyclic or too deep to serialise: the frame still shows, with size 0
  }
}
