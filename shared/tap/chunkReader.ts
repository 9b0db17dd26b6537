import { JsonLineReader, wireText } from '../runtime/lines'

/** Longest line read (a longer one was still relayed whole, and is said to be too long to read). */
const MAX_READ_LINE = 64 * 1024 * 1024
/** Longest stderr line kept whole. */
const MAX_STDERR_LINE = 64 * 1024

/** Which way bytes go: `out` from the host to the server (its stdin), `in` from the server to the host (its stdout). */
export type Way = 'out' | 'in'

/** What is read of a relayed session: its messages, lines that are not JSON, the server's stderr. */
export interface RelayWatcher {
  message(way: Way, message: unknown, ts: number, wire: string): void
  garbage(way: Way, text: string, ts: number): void
  stderr(line: string, ts: number): void
}

/**
 * Reads the chunks a relay passed on, after the fact: each direction cut into lines and parsed as JSON
 * (a line that is not is said to be so), the server's stderr cut into lines; each handed to the watcher in
 * the order it was relayed. A watcher that throws is told about once (`onFailure`) and asked again with
 * what comes next.
 */
export class ChunkReader {
  private readonly readers: Record<Way, JsonLineReader>
  private stderrRest = ''
  private failed = false

  constructor(
    private readonly watcher: RelayWatcher,
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {
    const parse = (line: string): unknown => {
      try {
        return JSON.parse(line) as unknown
      } catch {
        return new NotJson(line)
      }
    }
    this.readers = { out: new JsonLineReader(MAX_READ_LINE, parse), in: new JsonLineReader(MAX_READ_LINE, parse) }
  }

  read(way: Way | 'err', chunk: Buffer, ts: number): void {
    if (way === 'err') return this.stderr(chunk, ts)
    const reader = this.readers[way]
    try {
      reader.append(chunk)
    } catch (error) {
      return this.watch((w) => w.garbage(way, `a line longer than ${MAX_READ_LINE} bytes (${(error as Error).message})`, ts))
    }
    for (let message = reader.readMessage(); message !== null; message = reader.readMessage()) {
      if (message instanceof NotJson) {
        const { line } = message
        if (line.trim()) this.watch((w) => w.garbage(way, line, ts))
        continue
      }
      const wire = (message && typeof message === 'object' && wireText.get(message)) || JSON.stringify(message)
      this.watch((w) => w.message(way, message, ts, wire))
    }
  }

  private stderr(chunk: Buffer, ts: number): void {
    const lines = (this.stderrRest + chunk.toString('utf8')).split('\n')
    this.stderrRest = lines.pop()!.slice(-MAX_STDERR_LINE)
    for (const line of lines) {
      const text = line.replace(/\r$/, '')
      if (text) this.watch((w) => w.stderr(text.slice(0, MAX_STDERR_LINE), ts))
    }
  }

  private watch(say: (watcher: RelayWatcher) => void): void {
    try {
      say(this.watcher)
    } catch (error) {
      if (!this.failed) this.onFailure(error)
      this.failed = true
    }
  }
}

/** A line that is not JSON, as the line reader hands it on. */
class NotJson {
  constructor(readonly line: string) {}
}
