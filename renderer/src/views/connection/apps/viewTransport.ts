import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { FrameRelay } from './frameRelay'

/** The SDK's transport and message types, as the bridge takes them. */
type Transport = Parameters<AppBridge['connect']>[0]
type JSONRPCMessage = Parameters<Transport['send']>[0]

/**
 * The bridge's wire to one view: `postMessage` to and from the view's window only. Every message either
 * way goes through the relay first, so each is a frame; one the relay refuses (not JSON-RPC, too large,
 * too deep) never reaches the bridge. A view's window is an opaque origin, so messages to it name no
 * target origin (`*`); they go to that one window object, never broadcast.
 */
export class ViewTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private closed = false

  constructor(
    private readonly view: () => Window | null,
    private readonly relay: FrameRelay,
    /** Told about each message from the view that was refused, and why. */
    private readonly onRefused: (why: string) => void,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    const view = this.view()
    if (!view || event.source !== view) return // another window's message: not this view's
    const { refused } = this.relay.observe('in', event.data)
    if (refused) this.onRefused(refused)
    else this.onmessage?.(event.data as JSONRPCMessage)
  }

  async start(): Promise<void> {
    window.addEventListener('message', this.listener)
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the view is closed')
    const view = this.view()
    const { refused } = this.relay.observe('out', message)
    if (refused) throw new Error(`Parallax did not send the view a message that is ${refused}`)
    view?.postMessage(message, '*')
  }

  async close(): Promise<void> {
    this.closed = true
    window.removeEventListener('message', this.listener)
    this.onclose?.()
  }
}
