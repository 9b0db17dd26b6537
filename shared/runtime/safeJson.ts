/**
 * Depth- and size-safe JSON for everything that walks or serialises agent-supplied data.
 *
 * V8's JSON.stringify, structuredClone and Electron's IPC serialiser recurse: on Node 20 they overflow
 * the stack somewhere between 3,000 and 4,100 levels (less when the caller is already deep), while
 * JSON.parse reads any depth. So a server can hand Parallax a value it can parse but never serialise.
 * Every function here is iterative (an explicit stack, never recursion) and never throws.
 */

/** The deepest nesting Parallax accepts from an agent or a UI; deeper messages are refused at the door. */
export const MAX_DEPTH = 256

/** Values whose JSON is larger than this reach a UI as a bounded preview (the frames' own default limit). */
export const BOUND_THRESHOLD = 1_000_000

/** How large a bounded preview may be, at most (its strings keep up to 64 KB, like an oversized frame). */
export const PREVIEW_BUDGET = 256 * 1024

/** What a preview's markers say when nothing more precise is known about where the whole value is. */
export const DEFAULT_WHOLE_NOTE = "the whole payload is in this connection's frames (frames.export)"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The first `length` characters of `text` (never half a surrogate pair) as a string of their own. A cut
 * made with `slice` keeps the whole original alive for as long as the cut lives (V8 shares the
 * memory): a 64 KB preview kept in the event log must not hold on to the 50 MB it came from.
 */
export function detachedCut(text: string, length: number): string {
  let end = Math.min(length, text.length)
  if (end < text.length && end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--
  return detached(text.slice(0, end))
}

/** A copy of `text` that shares no memory with a larger string it was cut from. */
export function detached(text: string): string {
  return text.length < 256 ? text : decoder.decode(encoder.encode(text))
}

/** True when `value` is nested more than `limit` levels deep (a scalar is 0 levels, `[]` is 1). */
export function deeperThan(value: unknown, limit = MAX_DEPTH): boolean {
  return value !== null && typeof value === 'object' && nestedBeyond(value, 1, limit)
}

/** Recursion no deeper than `limit` (a few hundred frames) and no allocation: this runs on every message. */
function nestedBeyond(node: object, depth: number, limit: number): boolean {
  if (depth > limit) return true
  if (Array.isArray(node)) {
    for (const child of node as unknown[])
      if (child !== null && typeof child === 'object' && nestedBeyond(child, depth + 1, limit)) return true
    return false
  }
  for (const key in node) {
    const child = (node as Record<string, unknown>)[key]
    if (child !== null && typeof child === 'object' && nestedBeyond(child, depth + 1, limit)) return true
  }
  return false
}

/**
 * JSON text for any value, without throwing: the native serialiser when it can, otherwise an iterative
 * one, in which cycles become "[circular]", BigInts become strings and, when `maxDepth` is given,
 * values nested deeper than that become a marker string. (Without `maxDepth` the text is whole, at
 * any depth: what a frame keeps aside.)
 */
export function safeStringify(value: unknown, maxDepth = Infinity): string {
  try {
    return JSON.stringify(value) ?? 'null'
  } catch {
    return iterativeStringify(value, maxDepth)
  }
}

function iterativeStringify(root: unknown, maxDepth: number): string {
  const out: string[] = []
  // Work items: a value to write at a depth, literal text, or the end of a container (its cycle check).
  type Item = { value: unknown; depth: number } | { leave: object } | string
  const open = new Set<object>()
  const stack: Item[] = [{ value: root, depth: 0 }]
  while (stack.length) {
    const item = stack.pop()!
    if (typeof item === 'string') {
      out.push(item)
      continue
    }
    if ('leave' in item) {
      open.delete(item.leave)
      continue
    }
    let { value } = item
    if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      try {
        value = (value as { toJSON: () => unknown }).toJSON()
      } catch {
        value = String(value)
      }
    }
    if (typeof value === 'bigint') value = value.toString()
    if (value === null || typeof value !== 'object') {
      out.push(scalarText(value))
      continue
    }
    if (open.has(value)) {
      out.push('"[circular]"')
      continue
    }
    if (item.depth >= maxDepth) {
      out.push(JSON.stringify(`[nested deeper than ${maxDepth} levels: not shown]`))
      continue
    }
    open.add(value)
    const depth = item.depth + 1
    const pending: Item[] = []
    if (Array.isArray(value)) {
      pending.push('[')
      value.forEach((child, i) => {
        if (i) pending.push(',')
        pending.push({ value: child === undefined || typeof child === 'function' || typeof child === 'symbol' ? null : child, depth })
      })
      pending.push(']')
    } else {
      pending.push('{')
      let first = true
      for (const [key, child] of Object.entries(value)) {
        if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue
        pending.push(`${first ? '' : ','}${JSON.stringify(key)}:`)
        pending.push({ value: child, depth })
        first = false
      }
      pending.push('}')
    }
    pending.push({ leave: value })
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i])
  }
  return out.join('')
}

function scalarText(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value)
  return 'null' // undefined, functions, symbols
}

/**
 * Where the whole of a value can be found, for the markers of its preview: a connection marks the
 * objects it builds from a frame (a tool result, a conversation message) with that frame's number.
 * Weak, so marking never keeps anything alive.
 */
const wholeNotes = new WeakMap<object, string>()

export function noteWholeInFrame(value: unknown, frameSeq: number | undefined): void {
  if (value !== null && typeof value === 'object' && frameSeq !== undefined) {
    wholeNotes.set(value, `the whole payload is in frame #${frameSeq} (Frames → Save whole…, or frames.export)`)
  }
}

/**
 * Approximate JSON size of `value`, walking no further than `limit` bytes or `maxDepth` levels:
 * returns Infinity as soon as either is passed.
 */
export function jsonSizeWithin(value: unknown, limit: number, maxDepth = MAX_DEPTH): number {
  let size = 0
  // Two stacks side by side rather than one of pairs: this runs on every event, and a pair per value is garbage.
  const nodes: unknown[] = [value]
  const depths: number[] = [0]
  while (nodes.length) {
    const node = nodes.pop()
    const depth = depths.pop()!
    if (typeof node === 'string') size += node.length + 2
    else if (node === null || typeof node !== 'object') size += 6
    else {
      if (depth >= maxDepth) return Infinity
      size += 2
      if (Array.isArray(node)) {
        size += node.length
        if (size > limit) return Infinity
        for (let i = 0; i < node.length; i++) {
          nodes.push(node[i])
          depths.push(depth + 1)
        }
      } else {
        for (const key in node) {
          if (!Object.prototype.hasOwnProperty.call(node, key)) continue
          size += key.length + 4
          if (size > limit) return Infinity
          nodes.push((node as Record<string, unknown>)[key])
          depths.push(depth + 1)
        }
      }
    }
    if (size > limit) return Infinity
  }
  return size
}

interface Caps {
  string: number
  items: number
  keys: number
}

/** From generous to tight: the first whose preview fits the budget is used; the last always ends the walk. */
const CAPS: Caps[] = [
  { string: 64 * 1024, items: 10_000, keys: 1_000 },
  { string: 8 * 1024, items: 10_000, keys: 1_000 },
  { string: 1_024, items: 2_000, keys: 300 },
  { string: 200, items: 1_000, keys: 100 },
]

/** Once the budget is spent, at most this many more values are written (each one short), then containers stay empty. */
const AFTER_BUDGET = 5_000

/**
 * The value as a UI may receive it. Small values (JSON up to `BOUND_THRESHOLD`, nested no deeper than
 * `MAX_DEPTH`) are returned as they are, uncopied. Larger ones become a preview of the same shape: long
 * strings are cut, long arrays keep their first items and long objects their first keys, values nested
 * too deeply are replaced, and each cut says what was cut and where the whole value is. Elements of an
 * array stay what they were (a list of tools stays a list of tools): the note that items were cut goes
 * beside the array, under the key `<key>…`. The top level keeps all its keys (an event's `type`,
 * `seq`… always survive).
 */
export function boundForUi<T>(value: T, note = DEFAULT_WHOLE_NOTE): T {
  if (jsonSizeWithin(value, BOUND_THRESHOLD) !== Infinity) return value
  for (let i = 0; i < CAPS.length; i++) {
    const preview = boundedCopy(value, CAPS[i], note, i === CAPS.length - 1)
    if (preview !== undefined) return preview as T
  }
  return value // not reached: the last caps always produce a preview
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
const count = (n: number) => n.toLocaleString('en-US')
const noteOf = (value: unknown, inherited: string) =>
  value !== null && typeof value === 'object' ? (wholeNotes.get(value) ?? inherited) : inherited

/** The size of `value` once bounded under `caps` (roughly), or Infinity past `limit`. */
function boundedSize(value: unknown, caps: Caps, limit: number, depth: number): number {
  let size = 0
  const stack: [unknown, number][] = [[value, depth]]
  while (stack.length) {
    const [node, at] = stack.pop()!
    if (typeof node === 'string') size += Math.min(node.length, caps.string) + (node.length > caps.string ? 160 : 2)
    else if (node === null || typeof node !== 'object') size += 6
    else if (at >= MAX_DEPTH) size += 160
    else if (Array.isArray(node)) {
      size += 2 + (node.length > caps.items ? 160 : 0)
      for (let i = 0; i < Math.min(node.length, caps.items); i++) stack.push([node[i], at + 1])
    } else {
      const keys = Object.keys(node)
      size += 2 + (keys.length > caps.keys ? 160 : 0)
      for (let i = 0; i < Math.min(keys.length, caps.keys); i++) {
        size += keys[i].length + 4
        stack.push([(node as Record<string, unknown>)[keys[i]], at + 1])
      }
    }
    if (size > limit) return Infinity
  }
  return size
}

function boundedCopy(root: unknown, caps: Caps, rootNote: string, final: boolean): unknown {
  let size = 0
  let afterBudget = 0
  const box = { value: undefined as unknown }
  /** `parent` and `key`: where an array's cut note goes (beside it), when it sits in an object. */
  type Task = { value: unknown; depth: number; note: string; set: (v: unknown) => void; parent?: Record<string, unknown>; key?: string }
  const stack: Task[] = [{ value: root, depth: 0, note: rootNote, set: (v) => (box.value = v) }]
  while (stack.length) {
    const task = stack.pop()!
    const { value, depth } = task
    const note = noteOf(value, task.note)
    const spent = size > PREVIEW_BUDGET
    if (spent && !final) return undefined
    if (spent) afterBudget++
    const starved = afterBudget > AFTER_BUDGET
    if (typeof value === 'string') {
      const cap = starved ? 0 : spent ? 100 : caps.string
      if (value.length <= cap) {
        size += value.length + 2
        task.set(value)
      } else {
        const kept = detachedCut(value, cap)
        const marker = `… [Parallax cut ${plural(value.length - kept.length, 'character', 'characters')} of ${count(value.length)}; ${note}]`
        size += kept.length + marker.length + 2
        task.set(kept + marker)
      }
      continue
    }
    if (value === null || typeof value !== 'object') {
      size += 6
      task.set(typeof value === 'bigint' ? value.toString() : value)
      continue
    }
    if (depth >= MAX_DEPTH) {
      const marker = `[Parallax cut a value nested deeper than ${MAX_DEPTH} levels; ${note}]`
      size += marker.length
      task.set(marker)
      continue
    }
    size += 2
    if (Array.isArray(value)) {
      // The last pass keeps only the items that fit what is left of the budget, whole (never hollowed).
      let limit = starved ? 0 : depth === 0 && !final ? value.length : Math.min(value.length, caps.items)
      if (final && !starved) {
        let room = Math.max(0, PREVIEW_BUDGET - size)
        for (let i = 0; i < limit; i++) {
          const needed = boundedSize(value[i], caps, room, depth + 1)
          if (needed === Infinity) {
            limit = Math.max(i, depth === 0 ? Math.min(limit, 1) : 0)
            break
          }
          room -= needed
        }
      }
      const copy: unknown[] = new Array(limit)
      task.set(copy)
      if (limit < value.length) {
        const marker = `[Parallax cut ${plural(value.length - limit, 'item', 'items')} of ${count(value.length)}; ${note}]`
        size += marker.length
        if (task.parent && task.key !== undefined) task.parent[`${task.key}…`] = marker
        else copy.push(`… ${marker}`)
      }
      for (let i = limit - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, note, set: (v) => (copy[i] = v) })
      continue
    }
    const keys = Object.keys(value)
    const limit = depth === 0 ? keys.length : starved ? 0 : Math.min(keys.length, caps.keys)
    const copy: Record<string, unknown> = {}
    for (let i = 0; i < limit; i++) copy[keys[i]] = undefined // keep the key order
    if (limit < keys.length) copy['…'] = `[Parallax cut ${plural(keys.length - limit, 'key', 'keys')} of ${count(keys.length)}; ${note}]`
    task.set(copy)
    for (let i = limit - 1; i >= 0; i--) {
      const key = keys[i]
      size += key.length + 4
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, note, set: (v) => (copy[key] = v), parent: copy, key })
    }
  }
  return box.value
}

/** Commands whose answer is whole by design (an export), or made of events that are bounded already (and, on demand, bounded in size). */
const WHOLE_ANSWERS = new Set(['frames.export', 'recordings.export', 'events.since', 'events.backlog', 'frames.payloads', 'logs.texts'])

/** A command's answer as a UI receives it: large agent data as a bounded preview (the whole stays in its frame). */
export function answerForUi(command: string, result: unknown): unknown {
  return WHOLE_ANSWERS.has(command) ? result : boundForUi(result)
}
