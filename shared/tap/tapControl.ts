import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { TapBreakpoints } from '../contract'

/** The file in a tap's session folder the app writes its decisions to, one JSON line each. */
export const CONTROL_FILE = 'control.jsonl'
/** How often the tap looks for new lines (a person is deciding: a tenth of a second is at once). */
const POLL_MS = 100
/** Longest control line read (an edited message included). */
const MAX_LINE = 16 * 1024 * 1024

/** One decision: breakpoints to set, or a held message to release (edited, when `message` is given) or drop. */
export type ControlLine = { breakpoints: TapBreakpoints } | { release: number; message?: unknown } | { drop: number }

/**
 * Reads the decisions the app appends to a tap's `control.jsonl` (in the session folder, which only the
 * user can write: the data folder is 0700), from where it last read, each handed over once. A line that is
 * not a decision is skipped.
 */
export class TapControl {
  private offset = 0
  private rest = ''
  private readonly timer: ReturnType<typeof setInterval>

  constructor(
    private readonly dir: () => string | undefined,
    private readonly decide: (line: ControlLine) => void,
  ) {
    this.timer = setInterval(() => this.poll(), POLL_MS)
    this.timer.unref()
  }

  poll(): void {
    const dir = this.dir()
    if (!dir) return
    const path = join(dir, CONTROL_FILE)
    let size: number
    try {
      size = statSync(path).size
    } catch {
      return
    }
    if (size <= this.offset) return
    const length = Math.min(size - this.offset, MAX_LINE)
    const bytes = Buffer.alloc(length)
    const fd = openSync(path, 'r')
    try {
      readSync(fd, bytes, 0, length, this.offset)
    } finally {
      closeSync(fd)
    }
    this.offset += length
    const lines = (this.rest + bytes.toString('utf8')).split('\n')
    this.rest = lines.pop()!.slice(-MAX_LINE)
    for (const line of lines) {
      const decision = parse(line)
      if (decision) this.decide(decision)
    }
  }

  stop(): void {
    clearInterval(this.timer)
  }
}

function parse(line: string): ControlLine | undefined {
  try {
    const value = JSON.parse(line) as Record<string, unknown>
    if (value && typeof value === 'object') {
      if (isBreakpoints(value.breakpoints)) return { breakpoints: value.breakpoints }
      if (typeof value.release === 'number') return { release: value.release, ...('message' in value && { message: value.message }) }
      if (typeof value.drop === 'number') return { drop: value.drop }
    }
  } catch {
    // not a decision
  }
  return undefined
}

function isBreakpoints(value: unknown): value is TapBreakpoints {
  const b = value as TapBreakpoints | undefined
  const texts = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string')
  return (
    !!b &&
    typeof b.on === 'boolean' &&
    texts(b.methods) &&
    texts(b.tools) &&
    Array.isArray(b.directions) &&
    b.directions.every((d) => d === 'out' || d === 'in') &&
    typeof b.timeoutMs === 'number'
  )
}
