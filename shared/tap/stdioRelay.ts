import type { ChildProcess } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import { now } from '../runtime/clock'
import { signalChild, startChild } from '../runtime/childProcesses'
import type { Way } from './chunkReader'

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
  /** Told of each chunk after it has gone on (`err`: the server's stderr): it must be quick, the next chunk waits. */
  passed: (way: Way | 'err', chunk: Buffer, ts: number) => void
  gate?: LineGate
}

/**
 * Relays a stdio server (an MCP server, an ACP agent) for a host, byte for byte: the host's bytes go to the
 * server's stdin and the server's stdout and stderr to the host as each chunk arrives, with backpressure
 * kept both ways; only then is `passed` told of the chunk (the tap hands it to its reader on another
 * thread). Only while a gate holds messages in one direction are that direction's bytes cut into lines
 * before they go on.
 */
export class StdioRelay {
  readonly child: ChildProcess
  private readonly partial: Record<Way, string> = { out: '', in: '' }
  /** Whether the last byte relayed each way ended a line. */
  private readonly lineStart: Record<Way, boolean> = { out: true, in: true }
  /** The server's exit: its code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>

  constructor(private readonly options: RelayOptions) {
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
      child.once('close', (code, signal) => resolve({ code, signal }))
    })
  }

  /** Sends a line (a held message, released or edited) on its way, as if it came now; it is read as what went. */
  send(way: Way, line: string): void {
    const target = way === 'out' ? this.child.stdin! : this.options.output
    const bytes = Buffer.from(`${line}\n`)
    target.write(bytes)
    this.options.passed(way, bytes, now())
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
      this.options.passed(way, chunk, ts)
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
        this.options.passed(way, bytes, ts)
      }
  }
}
