import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { signalChild, startChild } from '../runtime/childProcesses'

/** Output kept per terminal when the agent names no limit. */
const DEFAULT_OUTPUT_LIMIT = 1024 * 1024
/** Terminals one session may hold at once. */
const MAX_TERMINALS = 32

export interface TerminalCommand {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  outputByteLimit?: number | null
}

interface Running {
  child: ChildProcess
  output: Buffer
  truncated: boolean
  limit: number
  exit?: { exitCode: number | null; signal: string | null }
  exited: Promise<{ exitCode: number | null; signal: string | null }>
}

/**
 * The terminals an ACP agent asked Parallax to run (`terminal/*`), each approved before it ran: output kept
 * up to the agent's byte limit (cut from the beginning at a character boundary, as the spec asks), exit
 * status, kill and release. Every one still running is killed when the connection closes.
 */
export class Terminals {
  private readonly running = new Map<string, Running>()

  start(command: TerminalCommand, onExit: (id: string, exit: { exitCode: number | null; signal: string | null }) => void): string {
    if (this.running.size >= MAX_TERMINALS) throw new Error(`this session already holds ${MAX_TERMINALS} terminals; release one first`)
    const id = `term_${randomUUID().slice(0, 8)}`
    const child = startChild(command.command, command.args, {
      cwd: command.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    })
    const limit = Math.max(0, command.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT)
    const entry: Running = {
      child,
      output: Buffer.alloc(0),
      truncated: false,
      limit,
      exited: new Promise((resolve) => {
        const done = (exitCode: number | null, signal: string | null) => {
          entry.exit ??= { exitCode, signal }
          onExit(id, entry.exit)
          resolve(entry.exit)
        }
        child.once('exit', (code, signal) => done(code, signal))
        child.once('error', (error) => {
          entry.output = Buffer.from(`${error.message}\n`)
          done(127, null)
        })
      }),
    }
    const append = (chunk: Buffer) => {
      entry.output = Buffer.concat([entry.output, chunk])
      if (entry.output.length > entry.limit) {
        let cut = entry.output.length - entry.limit
        // Never start in the middle of a UTF-8 character: skip its continuation bytes.
        while (cut < entry.output.length && (entry.output[cut] & 0xc0) === 0x80) cut++
        entry.output = entry.output.subarray(cut)
        entry.truncated = true
      }
    }
    child.stdout?.on('data', append)
    child.stderr?.on('data', append)
    this.running.set(id, entry)
    return id
  }

  output(id: string): { output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } } {
    const entry = this.get(id)
    return { output: entry.output.toString('utf8'), truncated: entry.truncated, ...(entry.exit && { exitStatus: entry.exit }) }
  }

  waitForExit(id: string): Promise<{ exitCode: number | null; signal: string | null }> {
    return this.get(id).exited
  }

  kill(id: string): void {
    const entry = this.get(id)
    if (!entry.exit) signalChild(entry.child, 'SIGKILL')
  }

  release(id: string): void {
    this.kill(id)
    this.running.delete(id)
  }

  /** Kills every terminal (the connection closed). */
  dispose(): void {
    for (const entry of this.running.values()) if (!entry.exit) signalChild(entry.child, 'SIGKILL')
    this.running.clear()
  }

  private get(id: string): Running {
    const entry = this.running.get(id)
    if (!entry) throw new Error(`no terminal "${id}" (released, or never created)`)
    return entry
  }
}
