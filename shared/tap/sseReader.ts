/** One server-sent event as the spec reads it: `event` (default `message`), `data` lines joined by newlines, and its `id`. */
export interface SseEvent {
  type: string
  data: string
  id?: string
}

/** Longest event the tap reads (a longer one is still relayed whole; reading stops there). */
const MAX_EVENT = 64 * 1024 * 1024

/**
 * Reads an event stream as its chunks are handed in (the bytes have already gone on to the host):
 * each whole event is given to `onEvent`; comments are skipped. Throws when an event grows past the limit.
 */
export class SseReader {
  private buffer = ''
  private event: SseEvent = { type: 'message', data: '' }
  private hasData = false
  private readonly decoder = new TextDecoder()

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break
      const line = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1))
      this.line(line)
    }
    if (this.buffer.length > MAX_EVENT || this.event.data.length > MAX_EVENT) throw new Error(`an SSE event over ${MAX_EVENT} bytes`)
  }

  /** The stream ended: an event without its closing blank line is dropped, as the spec says. */
  end(): void {
    this.buffer = ''
    this.event = { type: 'message', data: '' }
    this.hasData = false
  }

  private line(line: string): void {
    if (line === '') {
      if (this.hasData) this.onEvent(this.event)
      this.event = { type: 'message', data: '' }
      this.hasData = false
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const name = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (name === 'event') this.event.type = value
    else if (name === 'data') {
      this.event.data = this.hasData ? `${this.event.data}\n${value}` : value
      this.hasData = true
    } else if (name === 'id' && !value.includes('\0')) this.event.id = value
  }
}
