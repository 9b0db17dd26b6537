import type { Stream } from 'node:stream'

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
    onLine(text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}… (${text.length} characters, cut)` : text)
  }
}
