import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'

import { now } from '../engine/eventLog'

/** `ts`: when the message was handed to the transport, or received from it. */
export type FrameObserver = (direction: 'out' | 'in', message: JSONRPCMessage, ts: number) => void

/**
 * Wraps any MCP transport and reports every JSON-RPC message that crosses it, in both directions,
 * before the SDK acts on it. It changes nothing on the wire unless given a `rewrite`.
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
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.observe('in', message, now())
      this.onmessage?.(message, extra)
    }
    this.inner.onerror = (error) => this.onerror?.(error)
    this.inner.onclose = () => this.onclose?.()
    await this.inner.start()
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.rewrite(message)
    const at = now()
    // Handed over first, recorded second: over stdio the server is already at work while the frame is built.
    const sending = this.inner.send(sent, options)
    this.observe('out', sent, at)
    await sending
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
}
