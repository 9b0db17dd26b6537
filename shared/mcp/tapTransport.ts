import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'

import { now } from '../runtime/clock'
import { deeperThan, MAX_DEPTH } from '../runtime/safeJson'

/** The `_meta` key every 2026-era request carries (SEP-2575). */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion'

/**
 * `ts`: when the message was handed to the transport, or received from it. `refused`: set when Parallax
 * will not hand the message on (the frame then keeps a bounded preview). Returns the frame's number.
 */
export type FrameObserver = (
  direction: 'out' | 'in',
  message: JSONRPCMessage,
  ts: number,
  refused?: string,
  /** HTTP headers Parallax added to this message's request (SEP-2243's `Mcp-Param-*`). */
  headers?: Record<string, string>,
) => number | void

/** Headers a message's HTTP request carries beyond the transport's own; throws to refuse sending it. */
export type HeadersFor = (message: JSONRPCMessage) => Record<string, string> | undefined

/** JSON-RPC's "internal error": what the SDK is told in place of a response Parallax refused. */
export const REFUSED_CODE = -32603

/**
 * Wraps any MCP transport and reports every JSON-RPC message that crosses it, in both directions,
 * before the SDK acts on it. It changes nothing on the wire unless given a `rewrite`.
 *
 * A message from the server nested deeper than `MAX_DEPTH` levels never reaches the SDK (nothing
 * downstream could serialise it safely): a response becomes a JSON-RPC error for its id that says
 * why, a request is answered with an error, a notification is dropped; each is reported to `onRefused`
 * and its frame is still recorded, as a bounded preview with the whole text kept aside.
 *
 * A 2026-era answer without `resultType` reaches the SDK as `"complete"`, as SEP-2322 says a client takes it
 * (the 2.x SDK refuses it instead); its frame keeps what the server sent, and a note says so.
 */
export class TapTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void

  constructor(
    readonly inner: Transport,
    private readonly observe: FrameObserver,
    /** Changes an outgoing message before it is sent (and recorded): e.g. the protocol version a profile asks for. */
    private readonly rewrite: (message: JSONRPCMessage) => JSONRPCMessage = (message) => message,
    /** Told, in one line, about each message refused for its depth, and each answer taken as complete. */
    private readonly onRefused: (note: string) => void = () => {},
    /** Over streamable HTTP: the headers each message adds (./paramHeaders.ts). */
    private readonly headersFor?: HeadersFor,
  ) {}

  /** Ids of the 2026-era requests sent (their `_meta` names the protocol version) still awaiting an answer. */
  private readonly awaiting2026 = new Set<string | number>()

  private starting: Promise<void> | undefined

  /** Starts the transport once: the 2025 client may take over a pipe the 2026 probe already started (shared/mcp/eraProbe.ts). */
  start(): Promise<void> {
    this.starting ??= this.begin()
    return this.starting
  }

  private async begin(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (deeperThan(message, MAX_DEPTH)) return this.refuse(message)
      this.observe('in', message, now())
      this.onmessage?.(this.completedResult(message), extra)
    }
    this.inner.onerror = (error) => this.onerror?.(error)
    this.inner.onclose = () => this.onclose?.()
    await this.inner.start()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.rewrite(message)
    const request = sent as { id?: string | number; method?: unknown; params?: { _meta?: Record<string, unknown> } }
    if (request.id !== undefined && typeof request.method === 'string' && request.params?._meta?.[PROTOCOL_VERSION_KEY] !== undefined)
      this.awaiting2026.add(request.id)
    const headers = this.headersFor?.(sent)
    const at = now()
    // Handed over first, recorded second: over stdio the server is already at work while the frame is built.
    const sending = this.inner.send(sent, headers ? withHeaders(options, headers) : options)
    this.observe('out', sent, at, undefined, headers)
    await sending
  }

  /** SEP-2322: a 2026 result that does not say its `resultType` is complete. */
  private completedResult(message: JSONRPCMessage): JSONRPCMessage {
    const answer = message as { id?: string | number; result?: unknown }
    if (answer.id === undefined || !this.awaiting2026.delete(answer.id)) return message
    const result = answer.result
    if (typeof result !== 'object' || result === null || Array.isArray(result) || 'resultType' in result) return message
    this.onRefused(`the answer to request ${JSON.stringify(answer.id)} has no resultType: taken as "complete", as SEP-2322 says`)
    return { ...message, result: { ...result, resultType: 'complete' } } as JSONRPCMessage
  }

  private refuse(message: JSONRPCMessage): void {
    const why = `nested deeper than ${MAX_DEPTH} levels`
    const seq = this.observe('in', message, now(), why)
    const where = typeof seq === 'number' ? ` (its text is kept whole in frame #${seq})` : ''
    const msg = message as { id?: string | number | null; method?: unknown; result?: unknown; error?: unknown }
    const hasId = typeof msg.id === 'string' || typeof msg.id === 'number'
    if (typeof msg.method === 'string') {
      const what = hasId ? 'request' : 'notification'
      this.onRefused(`the server sent a ${what} (${msg.method.slice(0, 100)}) ${why}; Parallax refused it${where}`)
      if (hasId) {
        const answer = {
          jsonrpc: '2.0',
          id: msg.id,
          error: { code: -32600, message: `Parallax refused this request: its JSON is ${why}` },
        } as JSONRPCMessage
        this.inner.send(answer).then(
          () => this.observe('out', answer, now()),
          () => {},
        )
      }
      return
    }
    const text = `the server's response is ${why}; Parallax refused it${where}`
    this.onRefused(text)
    // The caller still gets an answer, at once: an error for the same id that says why.
    if (hasId) this.onmessage?.({ jsonrpc: '2.0', id: msg.id, error: { code: REFUSED_CODE, message: text } } as JSONRPCMessage)
  }

  close(): Promise<void> {
    return this.inner.close()
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version)
  }

  /** The 2.x HTTP transport's: a request is cancelled by closing its own response stream (2026 era). */
  get hasPerRequestStream(): boolean | undefined {
    return (this.inner as { hasPerRequestStream?: boolean }).hasPerRequestStream
  }
}

/** Send options with headers for the 2.x HTTP transport (the 1.x type has no such field; the 2.x transport reads it). */
function withHeaders(options: TransportSendOptions | undefined, headers: Record<string, string>): TransportSendOptions {
  const before = (options as { headers?: Record<string, string> } | undefined)?.headers
  return { ...options, headers: { ...before, ...headers } } as TransportSendOptions
}
