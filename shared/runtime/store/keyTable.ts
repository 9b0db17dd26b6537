import { readFileSync } from 'node:fs'
import type { EngineEvent, FrameEvent, LogEvent } from '../../contract'
import { AppendFile } from './appendFile'

/**
 * What a frame or a log line shares with many others, numbered in the order first seen in a session: a frame's
 * direction, protocol, transport, kind, method, subject and whether it is a probe; a log line's source, levels,
 * logger and whether it is an oddity. An index record carries the number, so the session's frames can be
 * filtered without reading a line. A session has few of them (each method, tool and level once); past
 * `MAX_KEYS` a new one is numbered `UNKEYED` and read from its line when it matters. The table goes to a
 * file of its own as it grows, one JSON line a key.
 */
export interface FrameKey {
  type: 'frame'
  direction: FrameEvent['direction']
  protocol: FrameEvent['protocol']
  transport: FrameEvent['transport']
  kind: FrameEvent['kind']
  method?: string
  subject?: string
  probe?: true
}

export interface LogKey {
  type: 'log'
  source: LogEvent['source']
  level: LogEvent['level']
  oddity?: true
  about?: LogEvent['about']
  serverLevel?: string
  logger?: string
}

export type EventKey = FrameKey | LogKey

export const MAX_KEYS = 65_536
/** The key of a frame or log line that came after the table was full, and of every other event. */
export const UNKEYED = 0xffffffff

export function keyOf(event: EngineEvent): EventKey | undefined {
  if (event.type === 'frame')
    return {
      type: 'frame',
      direction: event.direction,
      protocol: event.protocol,
      transport: event.transport,
      kind: event.kind,
      ...(event.method !== undefined && { method: event.method }),
      ...(event.subject !== undefined && { subject: event.subject }),
      ...(event.probe && { probe: true }),
    }
  if (event.type === 'log')
    return {
      type: 'log',
      source: event.source,
      level: event.level,
      ...(event.oddity && { oddity: true }),
      ...(event.about && { about: event.about }),
      ...(event.server && { serverLevel: event.server.level, ...(event.server.logger !== undefined && { logger: event.server.logger }) }),
    }
  return undefined
}

/** Whether two events have the same key (what keyOf reads of them, compared in place). */
function sameKey(a: EngineEvent, b: EngineEvent): boolean {
  if (a.type === 'frame' && b.type === 'frame')
    return (
      a.method === b.method &&
      a.kind === b.kind &&
      a.direction === b.direction &&
      a.subject === b.subject &&
      !a.probe === !b.probe &&
      a.protocol === b.protocol &&
      a.transport === b.transport
    )
  if (a.type === 'log' && b.type === 'log')
    return (
      a.level === b.level &&
      a.source === b.source &&
      !a.oddity === !b.oddity &&
      a.about === b.about &&
      a.server?.level === b.server?.level &&
      a.server?.logger === b.server?.logger &&
      !a.server === !b.server
    )
  return false
}

/** A key as the text that tells it from others (its JSON, fields in a fixed order). */
const textOf = (key: EventKey): string => JSON.stringify(key)

export class KeyTable {
  readonly keys: EventKey[] = []
  private readonly numbers = new Map<string, number>()
  private readonly file: AppendFile | undefined
  /** The last frame's and log line's key and an event that had it: a flood repeats a key, which then costs a few comparisons. */
  private lastFrame: { event: EngineEvent; number: number } | undefined
  private lastLog: { event: EngineEvent; number: number } | undefined

  /** `path`: where the table is written (a live session); `existing`: a table already on disk, read first. */
  constructor(path?: string, existing?: string) {
    if (existing !== undefined)
      for (const line of existing.split('\n')) {
        if (!line) continue
        try {
          this.add(JSON.parse(line) as EventKey)
        } catch {
          break // a torn last line: what follows it was never used
        }
      }
    if (path) this.file = new AppendFile(path, existing === undefined ? undefined : Buffer.byteLength(trimmed(existing)))
  }

  static read(path: string): KeyTable {
    let text = ''
    try {
      text = readFileSync(path, 'utf8')
    } catch {
      // no keys yet
    }
    return new KeyTable(undefined, text)
  }

  /** The number of `event`'s key (numbering it when new), or UNKEYED. */
  numberOf(event: EngineEvent): number {
    // A flood repeats one key: the event that had it last is compared field by field, making nothing.
    const last = event.type === 'frame' ? this.lastFrame : this.lastLog
    if (last && sameKey(last.event, event)) return last.number
    const key = keyOf(event)
    if (!key) return UNKEYED
    const text = textOf(key)
    let number = this.numbers.get(text)
    if (number === undefined) {
      if (this.keys.length >= MAX_KEYS) return UNKEYED
      number = this.add(key)
      this.file?.append(Buffer.from(`${text}\n`))
    }
    if (event.type === 'frame') this.lastFrame = { event, number }
    else this.lastLog = { event, number }
    return number
  }

  flush(): void {
    this.file?.flush()
  }

  close(): void {
    this.file?.close()
  }

  private add(key: EventKey): number {
    const number = this.keys.push(key) - 1
    this.numbers.set(textOf(key), number)
    return number
  }
}

/** The text up to its last whole line. */
function trimmed(text: string): string {
  const end = text.lastIndexOf('\n')
  return end === -1 ? '' : text.slice(0, end + 1)
}
