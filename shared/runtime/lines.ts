import type { Stream } from 'node:stream'
import { detached } from './safeJson'

/** Longest stderr line kept whole; a server printing megabytes without a newline is cut, not buffered. */
const MAX_LINE = 64 * 1024

/** Splits a byte stream into text lines (for a server's stderr) and hands each one over. */
export function pipeLines(stream: Stream, onLine: (line: string) => void): void {
  let buffered = ''
  stream.on('data', (chunk: Buffer | string) => {
    buffered += chunk.toString()
    let newline: number
    while ((newline = buffered.indexOf('\n')) !== -1) {
      emitLine(buffered.slice(0, newline))
      buffered = buffered.slice(newline + 1)
    }
    if (buffered.length > MAX_LINE) {
      emitLine(buffered)
      buffered = ''
    }
  })
  stream.on('end', () => {
    if (buffered) emitLine(buffered)
    buffered = ''
  })
  function emitLine(line: string): void {
    const text = line.replace(/\r$/, '')
    if (!text) return
    onLine(text.length > MAX_LINE ? `${detached(text.slice(0, MAX_LINE))}… (${text.length} characters, cut)` : text)
  }
}

/** The exact text each message from a stdio peer arrived as: the frame tap keeps it instead of serialising the message again. */
export const wireText = new WeakMap<object, string>()

/**
 * Reads newline-delimited JSON-RPC from a stdio peer's stdout (an MCP server, an ACP agent), in place of
 * the MCP SDK's own buffer, which
 * copies everything received so far on every chunk and searches it from the start (a 50 MB line took
 * half a minute and several copies of itself in memory). Each chunk is searched once, as it arrives;
 * a line's chunks are joined and decoded once. Same contract: `append` throws past
 * `maxBufferSize`, `readMessage` returns the next message or null, and throws on a line that is not
 * JSON-RPC (the SDK reports it and reads on).
 */
export class JsonLineReader<Message = unknown> {
  private chunks: Buffer[] = []
  private size = 0
  /** Lines complete and not yet read. */
  private readonly lines: string[] = []

  constructor(
    private readonly maxBufferSize: number,
    private readonly parse: (line: string) => Message,
  ) {}

  append(chunk: Buffer): void {
    let rest = chunk
    let newline: number
    while ((newline = rest.indexOf(0x0a)) !== -1) {
      if (this.size + newline > this.maxBufferSize) return this.overflow()
      const parts = [...this.chunks, rest.subarray(0, newline)]
      this.chunks = []
      this.size = 0
      const line = (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString('utf8')
      parts.length = 0
      this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line)
      rest = rest.subarray(newline + 1)
    }
    if (!rest.length) return
    if (this.size + rest.length > this.maxBufferSize) return this.overflow()
    this.chunks.push(rest)
    this.size += rest.length
  }

  private overflow(): never {
    this.clear()
    throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`)
  }

  readMessage(): Message | null {
    const line = this.lines.shift()
    if (line === undefined) return null
    const message = this.parse(line)
    if (message && typeof message === 'object') wireText.set(message, line)
    return message
  }

  clear(): void {
    this.chunks = []
    this.size = 0
    this.lines.length = 0
  }
}
