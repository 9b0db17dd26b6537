import { APP_FRAME_TEXT_MAX, isJsonRpcMessage, type ParallaxApi } from '../../../../../shared/contract'

/** As the engine refuses it too: a message nested deeper than this is not handed on. */
const MAX_DEPTH = 256
/** How much of a refused message's text goes to the engine (its frame keeps it as a preview). */
const PREVIEW_CHARS = 64 * 1024
/** Messages go to the engine in batches, this often at most, and this large at most (the socket takes 8 MB a message). */
const FLUSH_MS = 30
const BATCH_FRAMES = 500
const BATCH_CHARS = 4 * 1024 * 1024
/** A view that sends more than this many messages within a second is flooding: the UI stops it. */
export const FLOOD_PER_SECOND = 500

type Frame = { direction: 'in' | 'out'; text: string; ts: number; refused?: string; bytes?: number }

/**
 * Every message between a view and the UI, in order, to the engine (`apps.frames`), which makes each a
 * frame. Batched, so a busy view costs one command per batch; `flush` waits until everything seen so far
 * is recorded, so a view's request is on record before what it asks for (a tool call) runs. A message
 * that is not JSON, too large, too deep or not JSON-RPC is refused here: recorded (its beginning), never
 * handed on.
 */
export class FrameRelay {
  private queue: Frame[] = []
  private timer: ReturnType<typeof setTimeout> | undefined
  private sending: Promise<void> = Promise.resolve()
  private window: number[] = []
  private flooded = false

  constructor(
    private readonly api: ParallaxApi,
    private readonly viewId: string,
    /** Told once, when the view sends more than FLOOD_PER_SECOND messages in a second. */
    private readonly onFlood: () => void,
    /** Told when a batch could not be recorded, and why. */
    private readonly onLost: (count: number, why: string) => void,
  ) {}

  /** Notes one message crossing `postMessage`; says why it must not be handed on, if it must not. */
  observe(direction: 'in' | 'out', data: unknown): { refused?: string } {
    const ts = performance.timeOrigin + performance.now()
    // The shape first: structured clone carries cycles and shared objects, which would make JSON text hang or explode.
    const shape = shapeOf(data)
    let text: string | undefined
    if (!shape.problem) {
      try {
        text = JSON.stringify(data)
      } catch {
        text = undefined
      }
    }
    let refused: string | undefined = shape.problem
    let bytes: number | undefined
    if (refused) text = undefined
    else if (text === undefined) refused = 'not JSON'
    else if (text.length > APP_FRAME_TEXT_MAX) {
      refused = `larger than ${APP_FRAME_TEXT_MAX / 1024 / 1024} MB`
      bytes = new TextEncoder().encode(text).length
    } else if (!isJsonRpcMessage(data)) refused = 'not a JSON-RPC 2.0 message'
    const shown = text ?? safeString(data)
    this.push({
      direction,
      text: refused ? shown.slice(0, PREVIEW_CHARS) : shown,
      ts,
      ...(refused && { refused }),
      ...(bytes !== undefined && { bytes }),
    })
    if (direction === 'in') this.countForFlood(ts) // after it is queued: a flood's last message is recorded too
    return { refused }
  }

  /** Resolves once every message observed so far is recorded (or could not be). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    while (this.queue.length) {
      const batch: Frame[] = []
      let chars = 0
      while (this.queue.length && batch.length < BATCH_FRAMES && chars + this.queue[0].text.length <= BATCH_CHARS) {
        chars += this.queue[0].text.length
        batch.push(this.queue.shift()!)
      }
      if (batch.length === 0) batch.push(this.queue.shift()!) // one message alone over the batch size still goes
      this.sending = this.sending.then(() =>
        this.api.invoke('apps.frames', { viewId: this.viewId, frames: batch }).then(
          () => undefined,
          (error: Error) => this.onLost(batch.length, error.message),
        ),
      )
    }
    return this.sending
  }

  private push(frame: Frame): void {
    this.queue.push(frame)
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS)
  }

  private countForFlood(ts: number): void {
    this.window.push(ts)
    while (this.window.length && this.window[0] < ts - 1000) this.window.shift()
    if (!this.flooded && this.window.length > FLOOD_PER_SECOND) {
      this.flooded = true
      this.onFlood()
    }
  }
}

/** Objects in a message beyond which it is refused unread (the engine's own frame size limit is far below). */
const MAX_NODES = 1_000_000

/**
 * What makes a message unfit for JSON, found without recursion or re-visiting: objects shared or in a
 * cycle (JSON would repeat them, endlessly), nesting deeper than the engine accepts, or too many objects.
 */
function shapeOf(value: unknown): { problem?: string } {
  const seen = new Set<object>()
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    if (seen.has(node)) return { problem: 'not JSON (it holds the same object twice, or a cycle)' }
    seen.add(node)
    if (depth + 1 > MAX_DEPTH) return { problem: `nested deeper than ${MAX_DEPTH} levels` }
    if (seen.size > MAX_NODES) return { problem: `larger than ${MAX_NODES.toLocaleString()} objects` }
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1])
  }
  return {}
}

/** Something to show for a message that has no JSON text. */
function safeString(value: unknown): string {
  try {
    return typeof value === 'object' && value !== null ? `[${value.constructor?.name ?? 'object'} that is not JSON]` : String(value)
  } catch {
    return '[a value that is not JSON]'
  }
}
