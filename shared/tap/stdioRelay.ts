import type { ChildProcess } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { now } from '../runtime/clock'
import { signalChild, startChild } from '../runtime/childProcesses'
import { JsonLineReader, wireText } from '../runtime/lines'

/** Longest line the analysis reads (a longer one is still relayed whole, and said to be too long to read). */
const MAX_READ_LINE = 64 * 1024 * 1024

/** Which way bytes go: `out` from the host to the server (its stdin), `in` from the server to the host (its stdout). */
export type Way = 'out' | 'in'

/** What the relay tells whoever watches it, after the bytes have gone on. */
export interface RelayWatcher {
  message(way: Way, message: unknown, ts: number, wire: string): void
  garbage(way: Way, text: string, ts: number): void
  stderr(line: string, ts: number): void
}

/**
 * Decides, line by line, whether a message goes on now: only asked while something is being held in that
 * direction (`holding(way)`); returns false when it keeps the line to hand on later through `relay.send`.
 */
export interface LineGate {
  holding(way: Way): boolean
  pass(way: Way, line: string, ts: number): boolean
}

export interface RelayOptions {
  command: string
  args: readonly string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** The host's side: what it writes (the server's stdin), where the server's stdout and stderr go. */
  input: Readable
  output: Writable
  errors: Writable
  watcher: RelayWatcher
  gate?: LineGate
}

/**
 * Relays a stdio server (an MCP server, an ACP agent) for a host, byte for byte: the host's bytes go to the
 * server's stdin and the server's stdout and stderr to the host as each chunk arrives, before anything is
 * read of them; reading (splitting lines, parsing, the watcher's analysis) happens after, on the next turn
 * of the event loop, in batches, so the host never waits on it. A watcher that throws is the watcher's
 * problem: relaying goes on. Backpressure is kept both ways. Only while a gate holds messages in one
 * direction are that direction's bytes cut into lines before they go on.
 */
export class StdioRelay {
  readonly child: ChildProcess
  private readonly queue: { way: Way | 'err'; chunk: Buffer; ts: number }[] = []
  private scheduled = false
  private readonly readers: Record<Way, JsonLineReader>
  private readonly stderrTail = { text: '' }
  private readonly partial: Record<Way, string> = { out: '', in: '' }
  /** Whether the last byte relayed each way ended a line. */
  private readonly lineStart: Record<Way, boolean> = { out: true, in: true }
  /** The server's exit: its code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Told the first time the watcher fails (it is asked again with what comes next). */
  onWatcherFailure: ((error: unknown) => void) | undefined
  private watcherFailed = false

  constructor(private readonly options: RelayOptions) {
    const parse = (line: string): unknown => {
      try {
        return JSON.parse(line) as unknown
      } catch {
        return new NotJson(line)
      }
    }
    this.readers = { out: new JsonLineReader(MAX_READ_LINE, parse), in: new JsonLineReader(MAX_READ_LINE, parse) }
    this.child = startChild(options.command, [...options.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env ?? process.env,
    })
    const { input, output, errors } = options
    const child = this.child
    this.flow(input, child.stdin!, 'out')
    this.flow(child.stdout!, output, 'in')
    this.flow(child.stderr!, errors, 'err')
    input.on('end', () => child.stdin!.end())
    child.stdin!.on('error', () => {}) // the server closed its stdin: what the host writes after is dropped, as without a tap
    this.exited = new Promise((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (code, signal) => {
        this.drain()
        resolve({ code, signal })
      })
    })
  }

  /** Sends a line (a held message, released or edited) on its way, as if it came now; it is read as what went. */
  send(way: Way, line: string): void {
    const target = way === 'out' ? this.child.stdin! : this.options.output
    const bytes = Buffer.from(`${line}\n`)
    target.write(bytes)
    this.read(way, bytes, now())
  }

  /** Passes a signal to the server (and what it started). */
  signal(name: NodeJS.Signals): void {
    signalChild(this.child, name)
  }

  private flow(from: Readable, to: Writable, way: Way | 'err'): void {
    from.on('data', (chunk: Buffer) => {
      const ts = now()
      // The gate is asked only between lines, so a line is never cut in two by breakpoints turned on mid-line.
      if (way !== 'err' && (this.partial[way] !== '' || (this.lineStart[way] && this.options.gate?.holding(way))))
        return this.gated(way, chunk, ts, to)
      if (way !== 'err') this.lineStart[way] = chunk[chunk.length - 1] === 0x0a
      if (!to.write(chunk)) {
        from.pause()
        to.once('drain', () => from.resume())
      }
      this.read(way, chunk, ts)
    })
    from.on('end', () => {
      if (way === 'err' || !this.partial[way]) return
      to.write(this.partial[way]) // the last line, without its end, goes on as it came
      this.partial[way] = ''
    })
    to.on('error', () => {}) // the host went away: the server sees its stdin end, and exits as it would
  }

  /** While the gate holds in this direction: each whole line goes on (and is read) unless the gate keeps it; a partial line waits for its end. */
  private gated(way: Way, chunk: Buffer, ts: number, to: Writable): void {
    const lines = (this.partial[way] + chunk.toString('utf8')).split('\n')
    this.partial[way] = lines.pop()!
    for (const line of lines)
      if (!this.options.gate || this.options.gate.pass(way, line, ts)) {
        const bytes = Buffer.from(`${line}\n`)
        to.write(bytes)
        this.read(way, bytes, ts)
      }
  }

  /** Queues what went on for reading on the next turn. */
  private read(way: Way | 'err', chunk: Buffer, ts: number): void {
    this.queue.push({ way, chunk, ts })
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.drain())
    }
  }

  /** Reads what was relayed since the last turn: lines parsed and handed to the watcher, in order. */
  private drain(): void {
    this.scheduled = false
    const batch = this.queue.splice(0)
    for (const { way, chunk, ts } of batch) {
      if (way === 'err') {
        this.stderrLines(chunk, ts)
        continue
      }
      const reader = this.readers[way]
      try {
        reader.append(chunk)
      } catch (error) {
        this.watch((w) => w.garbage(way, `a line longer than ${MAX_READ_LINE} bytes (${(error as Error).message})`, ts))
        continue
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
  }

  private stderrLines(chunk: Buffer, ts: number): void {
    const lines = (this.stderrTail.text + chunk.toString('utf8')).split('\n')
    this.stderrTail.text = lines.pop()!.slice(-64 * 1024)
    for (const line of lines) {
      const text = line.replace(/\r$/, '')
      if (text) this.watch((w) => w.stderr(text, ts))
    }
  }

  private watch(say: (watcher: RelayWatcher) => void): void {
    try {
      say(this.options.watcher)
    } catch (error) {
      if (!this.watcherFailed) this.onWatcherFailure?.(error)
      this.watcherFailed = true
    }
  }
}

/** A line that is not JSON, as the line reader hands it on. */
class NotJson {
  constructor(readonly line: string) {}
}
