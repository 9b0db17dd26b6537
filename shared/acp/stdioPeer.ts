import { spawn, type ChildProcess } from 'node:child_process'
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk'
import { now } from '../runtime/clock'
import { JsonLineReader, pipeLines, wireText } from '../runtime/lines'
import { deeperThan, MAX_DEPTH } from '../runtime/safeJson'

/** What the tap is told about each line the agent wrote: a message (and the text it came as), or a line refused and why. */
export interface PeerObserver {
  /** Every message, both ways, before the SDK acts on it (out: before it is written). Returns the frame's number. */
  frame(direction: 'out' | 'in', message: AnyMessage, ts: number, wire?: string): void
  /** A line that is no JSON-RPC message, or one nested too deeply: kept as a refused frame, never handed on. */
  refused(line: string, why: string, ts: number): void
  stderr(line: string): void
  exit(exit: { code: number | null; signal: string | null }): void
}

/** What an agent is run with: the command, and the environment it adds to the safe default. */
export interface PeerCommand {
  command: string
  args: string[]
  env: Record<string, string>
  cwd?: string
}

/** Variables an agent inherits from Parallax's own environment (as MCP stdio clients do): enough to find its tools, nothing more. */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR']

/**
 * An ACP agent run over stdio: the child process, and the SDK `Stream` Parallax speaks to it through. Every
 * message is seen by the observer as it crosses the pipe — the text it arrived as, in wire order — and a line
 * that is not JSON-RPC (or is nested deeper than Parallax walks) is refused there, never reaching the SDK.
 * An outgoing message may be rewritten first (`rewrite`: the proposal's hint field, which no SDK schema has).
 */
export class StdioPeer {
  readonly child: ChildProcess
  readonly stream: Stream
  /** Resolves once the process has exited (and the observer was told how). */
  readonly exited: Promise<void>
  private ended = false

  constructor(
    command: PeerCommand,
    private readonly observer: PeerObserver,
    maxMessageBytes: number,
    rewrite: (message: AnyMessage) => AnyMessage = (message) => message,
  ) {
    const inherited = Object.fromEntries(INHERITED.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]))
    this.child = spawn(command.command, command.args, {
      cwd: command.cwd,
      env: { ...inherited, ...command.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // A process group of its own: a Ctrl+C at the terminal is Parallax's, which cancels the turn in flight
      // (session/cancel) and then ends the agent itself (stop), instead of the agent dying mid-turn.
      detached: process.platform !== 'win32',
    })
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        observer.exit({ code, signal })
        resolve()
      }),
    )
    pipeLines(this.child.stderr!, (line) => observer.stderr(line))
    // Each line is kept with its text: a refused one is shown as it came, a message's frame keeps the text it arrived as.
    const reader = new JsonLineReader<Line>(maxMessageBytes, (line) => {
      try {
        return { line, value: JSON.parse(line) as unknown }
      } catch {
        return { line, notJson: true }
      }
    })
    const readable = new ReadableStream<AnyMessage>({
      start: (controller) => {
        const stdout = this.child.stdout!
        stdout.on('data', (chunk: Buffer) => {
          try {
            reader.append(chunk)
          } catch (error) {
            observer.refused('', `the agent wrote a line longer than ${maxMessageBytes} bytes (${(error as Error).message})`, now())
          }
          for (;;) {
            const message = this.next(reader)
            if (message === null) break
            // The SDK may have stopped reading (the connection closed): what still comes is a frame, handed to no one.
            if (message !== undefined && !this.ended) controller.enqueue(message)
          }
        })
        const end = () => {
          if (this.ended) return
          this.ended = true
          try {
            controller.close()
          } catch {
            // already closed
          }
        }
        stdout.once('end', end)
        this.child.once('error', end)
        this.child.once('exit', () => setImmediate(end))
      },
      cancel: () => {
        this.ended = true
      },
    })
    const stdin = this.child.stdin!
    stdin.on('error', () => {}) // a dead agent's pipe: its exit says what happened
    const writable = new WritableStream<AnyMessage>({
      write: (message) => {
        const sent = rewrite(message)
        observer.frame('out', sent, now())
        return new Promise<void>((resolve) => {
          if (stdin.destroyed || !stdin.writable) return resolve()
          stdin.write(`${JSON.stringify(sent)}\n`, () => resolve())
        })
      },
    })
    this.stream = { readable, writable }
  }

  /** The next message read, undefined for a line refused (said to the observer), null when none is left. */
  private next(reader: JsonLineReader<Line>): AnyMessage | null | undefined {
    const read = reader.readMessage()
    if (read === null) return null
    wireText.delete(read)
    const ts = now()
    if (read.notJson) return void this.observer.refused(read.line, 'it is not JSON', ts)
    const message = read.value
    if (!isJsonRpc(message))
      return void this.observer.refused(read.line, 'it is JSON, but no JSON-RPC message (no method, nor a result or error for an id)', ts)
    if (deeperThan(message, MAX_DEPTH)) return void this.observer.refused(read.line, `it is nested deeper than ${MAX_DEPTH} levels`, ts)
    this.observer.frame('in', message, ts, read.line)
    return message
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && !this.ended
  }

  /** Ends the agent: stdin closed (a polite agent exits), then SIGTERM, then SIGKILL. Resolves when it is gone. */
  async stop(graceMs = 1_000): Promise<void> {
    const child = this.child
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.stdin?.end()
    const timer = setTimeout(() => child.kill('SIGTERM'), graceMs / 2)
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
    clearTimeout(killer)
  }
}

/** One line the agent wrote: its text, and the JSON in it unless it was none. */
interface Line {
  line: string
  value?: unknown
  notJson?: true
}

function isJsonRpc(value: unknown): value is AnyMessage {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false
  const m = value as { method?: unknown; id?: unknown; result?: unknown; error?: unknown }
  if (typeof m.method === 'string') return true
  return (m.id !== undefined || m.error !== undefined) && ('result' in m || m.error !== undefined)
}
