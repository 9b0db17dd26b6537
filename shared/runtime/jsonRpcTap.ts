import type { FrameEvent, FrameKind, FrameProtocol, FrameTransport } from '../contract'
import { now } from './clock'
import { SHOWN_BYTES, type FrameSpill } from './frameSpill'
import { detachedCut, safeStringify } from './safeJson'

export type TappedFrame = Omit<FrameEvent, 'seq' | 'connectionId'>
export type FrameSink = (frame: TappedFrame) => void

type JsonRpcLike = { id?: string | number | null; method?: unknown; params?: unknown; result?: unknown; error?: unknown }

/** A request on its way: when it went, what it was, and its frame (whose `seq` the answer points back to). */
type Pending = { ts: number; method: string; subject?: string; probe?: true; frame: TappedFrame & { seq?: number } }

/**
 * Turns JSON-RPC messages into `frame` events: classifies each one, measures its size, and pairs
 * every response with the request that went the other way to give its latency.
 */
export class JsonRpcTap {
  /** Outstanding requests by id (as text: an answer to 1 may say "1", as the SDKs accept): those Parallax sent, and the peer's. */
  private readonly pending = { out: new Map<string, Pending>(), in: new Map<string, Pending>() }
  /** The method of a keepalive probe about to be sent: its request and answer are marked as the probe's. */
  private probeMethod: string | undefined

  constructor(
    private readonly protocol: FrameProtocol,
    public transport: FrameTransport,
    private readonly sink: FrameSink,
    private readonly spill?: FrameSpill,
    /** What a protocol's own requests and notifications are about (ACP: the kind of a session update); MCP's are built in. */
    private readonly subjectFor: (method: string, params: unknown) => string | undefined = subjectOf,
  ) {}

  /**
   * `refused`: why Parallax will not hand this message on (e.g. it is nested too deeply). Its frame then
   * keeps a preview of its text, never the value itself, and the whole text goes aside like an oversized frame's.
   * `wire`: the exact text the message travelled as, when the transport kept it (saves serialising it again).
   */
  record(direction: 'out' | 'in', message: unknown, ts = now(), refused?: string, wire?: string, http?: TappedFrame['http']): TappedFrame {
    const msg = (message ?? {}) as JsonRpcLike
    const kind = classify(msg)
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined
    let method = typeof msg.method === 'string' ? msg.method : undefined
    let subject = method ? this.subjectFor(method, msg.params) : undefined
    let latencyMs: number | undefined
    let requestSeq: number | undefined
    let probe: true | undefined
    let request: Pending | undefined
    if (kind === 'request' && id !== undefined) {
      if (direction === 'out' && method === this.probeMethod) {
        probe = true
        this.probeMethod = undefined
      }
    } else if ((kind === 'response' || kind === 'error') && id !== undefined) {
      const asked = this.pending[direction === 'in' ? 'out' : 'in']
      request = asked.get(String(id))
      if (request) {
        asked.delete(String(id))
        latencyMs = ts - request.ts
        ;({ method, subject, probe } = request)
        requestSeq = request.frame.seq
      }
    }
    const text = wire ?? safeStringify(message)
    const size = Buffer.byteLength(text)
    const oversized = refused ? (this.spill?.spill(text, size, true) ?? textPreview(text)) : this.spill?.spill(text, size)
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
      ...(requestSeq !== undefined && { requestSeq }),
      ...(subject !== undefined && { subject }),
      ...(probe && { probe }),
      ...(oversized && { truncated: refused ? { ...oversized.truncated, refused } : oversized.truncated }),
      ...(http && { http }),
    }
    if (kind === 'request' && id !== undefined) this.pending[direction].set(String(id), { ts, method: method!, subject, probe, frame })
    this.sink(frame)
    return frame
  }

  /** Marks the next request of `method` sent, and its answer, as a keepalive probe's. */
  expectProbe(method: string): void {
    this.probeMethod = method
  }

  /** Forget unanswered requests (after a reconnect, ids start again). */
  reset(): void {
    this.pending.out.clear()
    this.pending.in.clear()
  }
}

/** What an MCP request is about, beyond its method: the tool, the prompt, the resource, the completion's reference. */
function subjectOf(method: string, params: unknown): string | undefined {
  const p = (params ?? {}) as { name?: unknown; uri?: unknown; ref?: { name?: unknown; uri?: unknown } }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
  if (method === 'tools/call' || method === 'prompts/get') return text(p.name)
  if (method.startsWith('resources/') && method !== 'resources/list' && method !== 'resources/templates/list') return text(p.uri)
  if (method === 'completion/complete') return text(p.ref?.name) ?? text(p.ref?.uri)
  return undefined
}

function classify(msg: JsonRpcLike): FrameKind {
  if (typeof msg.method === 'string') return msg.id === undefined || msg.id === null ? 'notification' : 'request'
  if (msg.error !== undefined) return 'error'
  // Neither a method nor a result: no JSON-RPC message at all (what a peer sent that Parallax refused).
  return msg.result !== undefined ? 'response' : 'error'
}

/** A frame's preview when there is no spill to keep the whole text in. */
export function textPreview(text: string): { preview: string; truncated: { shownBytes: number } } {
  const shown = detachedCut(text, SHOWN_BYTES)
  return { preview: shown.length < text.length ? `${shown}…` : shown, truncated: { shownBytes: Buffer.byteLength(shown) } }
}
