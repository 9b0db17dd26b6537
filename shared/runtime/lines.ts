import type { Stream } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { letGoOfGarbage } from './letGo'
import { detached } from './safeJson'

/** Longest stderr line kept whole; a server printing megabytes without a newline is cut, not buffered. */
const MAX_LINE = 64 * 1024

/** A message this large is parsed only once the pieces it came in are gone from memory. */
const LARGE_LINE = 8 * 1024 * 1024
/** How much of a long line is decoded at once. */
const DECODE_STEP = 1024 * 1024

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
 * half a minute and several copies of itself in memory). Each chunk is searched and decoded once, as it
 * arrives, so a long line is held as text only (its bytes are let go chunk by chunk), and joined once. Same contract: `append` throws past
 * `maxBufferSize`, `readMessage` returns the next message or null, and throws on a line that is not
 * JSON-RPC (the SDK reports it and reads on).
 */
export class JsonLineReader<Message = unknown> {
  /** The current line so far: bytes not yet decoded, and text decoded a megabyte or more at a time. */
  private bytes: Buffer[] = []
  private undecoded = 0
  private pieces: string[] = []
  private size = 0
  private readonly decoder = new StringDecoder('utf8')
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
      const head = rest.subarray(0, newline)
      let line: string
      if (this.size === 0) line = head.toString('utf8')
      else {
        // A newline never falls inside a UTF-8 sequence: the decoder holds nothing back at a line's end.
        this.hold(head)
        this.decodeHeld()
        line = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join('')
        this.pieces = []
        if (this.size > LARGE_LINE) letGoOfGarbage()
      }
      this.size = 0
      this.lines.push(line.endsWith('\r') ? line.slice(0, -1) : line)
      rest = rest.subarray(newline + 1)
    }
    if (!rest.length) return
    if (this.size + rest.length > this.maxBufferSize) return this.overflow()
    this.hold(rest)
    this.size += rest.length
    if (this.undecoded >= DECODE_STEP) this.decodeHeld()
  }

  private hold(bytes: Buffer): void {
    this.bytes.push(bytes)
    this.undecoded += bytes.length
  }

  /** Decodes what is held in one piece: pieces of a megabyte or more are never copied by the garbage collector. */
  private decodeHeld(): void {
    if (this.bytes.length) this.pieces.push(this.decoder.write(this.bytes.length === 1 ? this.bytes[0] : Buffer.concat(this.bytes)))
    this.bytes = []
    this.undecoded = 0
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
    this.bytes = []
    this.undecoded = 0
    this.pieces = []
    this.size = 0
    this.decoder.end()
    this.lines.length = 0
  }
}
