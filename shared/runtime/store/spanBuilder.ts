import type { EngineEvent, FrameEvent, TimelineLaneId } from '../../contract'
import type { Outcome } from './spanLanes'

/** A mark inside a span: a task's state, a stream's event, a progress report (`fill` 0..1), an authorization step. */
export interface SpanMark {
  ts: number
  label: string
  seq?: number
  fill?: number
}

/** A span as it is made: open until `end` is set (a tick has `end === start`). */
export interface BuiltSpan {
  lane: TimelineLaneId
  start: number
  end?: number
  seq: number
  endSeq?: number
  label: string
  outcome: Outcome
  marks?: SpanMark[]
  /** Marks past MAX_MARKS, counted. */
  marksDropped?: number
  /** A span handed on still open: when (it is written in the order of this time). */
  writtenAt?: number
}

/** An open request: its span, and how it can be named (its progress token, its id, its subject). */
type Request = BuiltSpan & { progress?: string; idKey?: string; subject?: string; uri?: string; subscribes?: boolean }

/** Marks kept per span: a stream of a million events keeps its first ones and says how many more there were. */
export const MAX_MARKS = 500
/** Spans kept open at once (requests never answered, tasks never finished): past it, the oldest is written as still open. */
const MAX_OPEN = 50_000
const TERMINAL = new Set(['completed', 'failed', 'canceled', 'cancelled', 'rejected'])
/** States that end an A2A stream without ending its task: the agent waits for the client. */
const PAUSED = new Set(['input-required', 'auth-required'])

/**
 * Spans from a session's events, one event at a time and O(1) each (a few map lookups): a request opens a span
 * that its answer (`requestSeq`) closes; a stream's events fill the span of the request that opened it; a
 * task's states mark the span of its life; an authorization flow's steps mark the span of the flow; keepalive
 * probes, notifications and errors are spans or ticks of their own lanes. Each span is handed to `emit` when it
 * closes (so spans come in the order they end); `close` hands the ones still open, without an end.
 */
export class SpanBuilder {
  private readonly requests = new Map<number, Request>()
  /** A request's seq by the way it went and its JSON-RPC id (a cancellation names the id). */
  private readonly byId = new Map<string, number>()
  /** A request's seq by the progress token it sent. */
  private readonly byProgress = new Map<string, number>()
  private readonly streams = new Map<number, BuiltSpan>()
  /** Resource subscriptions open, by URI. */
  private readonly subscriptions = new Map<string, BuiltSpan>()
  private readonly tasks = new Map<string, BuiltSpan & { state?: string; origin?: true }>()
  private readonly finishedTasks = new Set<string>()
  private readonly flows = new Map<string, BuiltSpan>()
  /** A keepalive probe's frames were drawn since the last keepalive event: the event adds nothing. */
  private probeDrawn = false
  /** The time of the latest event. */
  private now = 0

  constructor(private readonly emit: (span: BuiltSpan) => void) {}

  add(event: EngineEvent): void {
    this.now = Math.max(this.now, event.ts)
    switch (event.type) {
      case 'frame':
        return this.frame(event)
      case 'keepalive': {
        const drawn = this.probeDrawn
        this.probeDrawn = false
        if (drawn && event.ok) return
        const start = event.ok ? event.ts - event.rttMs : event.ts
        const span: BuiltSpan = {
          lane: 'keepalive',
          start,
          end: event.ts,
          seq: event.seq,
          label: `keepalive ${event.probe}${event.ok ? '' : `: ${event.error ?? 'failed'}`}`,
          outcome: event.ok ? 'ok' : 'error',
        }
        this.done(span)
        this.probeDrawn = false // drawn from the event itself: the next event is not the probe frames' echo
        return
      }
      case 'auth': {
        let flow = this.flows.get(event.flowId)
        if (!flow) {
          flow = { lane: 'auth', start: event.ts, seq: event.seq, label: `authorization ${event.targetId}`, outcome: 'pending', marks: [] }
          this.keep(this.flows, event.flowId, flow)
        }
        mark(flow, { ts: event.ts, label: `${event.step}: ${event.summary}`, seq: event.seq })
        if (event.step === 'granted' || event.step === 'failed' || event.step === 'signed-out') {
          this.flows.delete(event.flowId)
          this.finish(flow, event.ts, event.seq, event.step === 'failed' ? 'error' : 'ok')
        }
        return
      }
      case 'serverRequest': {
        if (event.frameSeq === undefined || (event.state !== 'cancelled' && event.state !== 'failed')) return
        const request = this.requests.get(event.frameSeq)
        if (request) this.answer(request, event.ts, event.seq, event.state === 'failed' ? 'error' : 'cancelled')
        return
      }
      case 'call':
        if (event.task) this.taskState(event.task.id, event.task.status, event.ts, event.seq)
        return
      default:
        return
    }
  }

  /** The spans open now (a live session's unanswered requests, running tasks and streams), without an end. */
  open(): BuiltSpan[] {
    return [
      ...this.requests.values(),
      ...this.streams.values(),
      ...this.subscriptions.values(),
      ...this.tasks.values(),
      ...this.flows.values(),
    ]
  }

  /** The session ended (at `at`): what is still open is handed on as it is (no end). */
  close(at = this.now): void {
    for (const span of this.open()) this.emit({ ...span, writtenAt: at })
    this.requests.clear()
    this.streams.clear()
    this.subscriptions.clear()
    this.tasks.clear()
    this.flows.clear()
  }

  private frame(frame: FrameEvent): void {
    const own = frame.protocol === 'mcp-app' ? 'app' : frame.probe ? 'keepalive' : undefined
    switch (frame.kind) {
      case 'request': {
        const span: Request = {
          lane: own ?? (frame.direction === 'out' ? 'requests' : 'server-requests'),
          start: frame.ts,
          seq: frame.seq,
          label: labelOf(frame),
          outcome: 'pending',
          ...(frame.subject !== undefined && { subject: frame.subject }),
        }
        const token = field(field(field(frame.payload, 'params'), '_meta'), 'progressToken')
        if (typeof token === 'string' || typeof token === 'number') {
          span.progress = String(token)
          this.keep(this.byProgress, span.progress, frame.seq)
        }
        if (frame.id !== undefined) {
          span.idKey = `${frame.direction}:${frame.id}`
          this.keep(this.byId, span.idKey, frame.seq)
        }
        if (frame.method === 'resources/subscribe' || frame.method === 'resources/unsubscribe') {
          const uri = field(field(frame.payload, 'params'), 'uri')
          if (typeof uri === 'string') Object.assign(span, { uri, subscribes: frame.method === 'resources/subscribe' })
        }
        this.keep(this.requests, frame.seq, span)
        return
      }
      case 'response':
      case 'error':
      case 'trailers': {
        const request = frame.requestSeq === undefined ? undefined : this.requests.get(frame.requestSeq)
        const stream = frame.requestSeq === undefined ? undefined : this.streams.get(frame.requestSeq)
        const outcome: Outcome = frame.kind === 'error' ? 'error' : 'ok'
        if (request) this.answer(request, frame.ts, frame.seq, outcome)
        if (stream) {
          this.streams.delete(frame.requestSeq!)
          this.finish(stream, frame.ts, frame.seq, outcome)
        }
        if (!request && !stream && frame.kind === 'error')
          this.done({ lane: 'errors', start: frame.ts, end: frame.ts, seq: frame.seq, label: labelOf(frame), outcome: 'error' })
        if (frame.kind !== 'trailers') this.tasksIn(frame, resultOf(frame.payload), request)
        return
      }
      case 'stream-event': {
        const request = frame.requestSeq === undefined ? undefined : this.requests.get(frame.requestSeq)
        if (frame.requestSeq === undefined) return this.tick(frame, own ?? 'streams')
        let stream = this.streams.get(frame.requestSeq)
        if (!stream) {
          stream = {
            lane: own ?? 'streams',
            start: request?.start ?? frame.ts,
            seq: frame.requestSeq,
            label: `stream ${request?.label ?? labelOf(frame)}`,
            outcome: 'pending',
            marks: [],
          }
          this.keep(this.streams, frame.requestSeq, stream)
        }
        // The request is answered when its stream begins; the stream goes on in a lane of its own.
        if (request) this.answer(request, frame.ts, frame.seq, 'ok')
        const result = resultOf(frame.payload)
        const task = taskIn(result)
        mark(stream, { ts: frame.ts, label: task ? stateName(task.state) : eventName(result), seq: frame.seq })
        this.tasksIn(frame, result, request)
        if (field(frame.payload, 'error') !== undefined) {
          this.streams.delete(frame.requestSeq)
          this.finish(stream, frame.ts, frame.seq, 'error')
        } else if (endsStream(result, task?.state)) {
          this.streams.delete(frame.requestSeq)
          this.finish(stream, frame.ts, frame.seq, 'ok')
        }
        return
      }
      case 'notification': {
        const params = field(frame.payload, 'params')
        if (frame.method === 'notifications/progress') {
          const token = field(params, 'progressToken')
          const seq = token === undefined ? undefined : this.byProgress.get(String(token))
          const request = seq === undefined ? undefined : this.requests.get(seq)
          if (request) {
            const progress = Number(field(params, 'progress'))
            const total = Number(field(params, 'total'))
            const message = field(params, 'message')
            mark(request, {
              ts: frame.ts,
              label: typeof message === 'string' ? message : `progress ${progress}${total ? `/${total}` : ''}`,
              seq: frame.seq,
              ...(total > 0 && Number.isFinite(progress) && { fill: Math.max(0, Math.min(1, progress / total)) }),
            })
            return
          }
        }
        if (frame.method === 'notifications/resources/updated') {
          const uri = field(params, 'uri')
          const subscription = typeof uri === 'string' ? this.subscriptions.get(uri) : undefined
          if (subscription) return mark(subscription, { ts: frame.ts, label: 'updated', seq: frame.seq })
        }
        if (frame.method === 'notifications/cancelled') {
          const id = field(params, 'requestId')
          const seq = this.byId.get(`${frame.direction}:${String(id)}`)
          const request = seq === undefined ? undefined : this.requests.get(seq)
          if (request) this.answer(request, frame.ts, frame.seq, 'cancelled')
        }
        this.tasksIn(frame, frame.protocol === 'a2a' ? (params ?? frame.payload) : params, undefined)
        return this.tick(frame, own ?? 'notifications')
      }
    }
  }

  /** A request answered (or given up): its span ends, and a failure is marked in `errors` too. */
  private answer(request: Request, ts: number, seq: number, outcome: Outcome): void {
    this.requests.delete(request.seq)
    if (request.progress !== undefined) this.byProgress.delete(request.progress)
    if (request.idKey !== undefined && this.byId.get(request.idKey) === request.seq) this.byId.delete(request.idKey)
    this.finish(request, ts, seq, outcome)
    if (request.uri !== undefined && outcome === 'ok') this.subscription(request, ts, seq)
  }

  /** A resource subscribed to is a stream from the subscription's answer to its unsubscription's, its updates marked. */
  private subscription(request: Request, ts: number, seq: number): void {
    const uri = request.uri!
    const open = this.subscriptions.get(uri)
    if (request.subscribes) {
      if (open) return
      this.keep(this.subscriptions, uri, {
        lane: 'streams',
        start: request.start,
        seq: request.seq,
        label: `subscription ${uri}`,
        outcome: 'pending',
        marks: [],
      })
    } else if (open) {
      this.subscriptions.delete(uri)
      this.finish(open, ts, seq, 'ok')
    }
  }

  /** The tasks an answer, a stream event or a notification speaks of: each one's state marked on its span. */
  private tasksIn(frame: FrameEvent, value: unknown, request: (BuiltSpan & { subject?: string }) | undefined): void {
    const task = taskIn(value)
    if (!task) return
    this.taskState(task.id, task.state, frame.ts, frame.seq, request)
  }

  private taskState(id: string, rawState: string, ts: number, seq: number, origin?: BuiltSpan & { subject?: string }): void {
    if (this.finishedTasks.has(id)) return
    const state = stateName(rawState)
    let task = this.tasks.get(id)
    if (!task) {
      task = { lane: 'tasks', start: ts, seq, label: `task ${id}`, outcome: 'pending', marks: [] }
      this.keep(this.tasks, id, task)
    }
    // The request that made the task (its answer may come after the task's first status): the task began with it.
    if (origin && !task.origin && origin.start <= task.start) {
      task.origin = true
      task.start = origin.start
      task.seq = origin.seq
      if (origin.subject) task.label = `task ${id} · ${origin.subject}`
    }
    if (task.state !== state) mark(task, { ts, label: state, seq })
    task.state = state
    if (TERMINAL.has(state)) {
      this.tasks.delete(id)
      this.finishedTasks.add(id)
      if (this.finishedTasks.size > MAX_OPEN) this.finishedTasks.delete(this.finishedTasks.values().next().value!)
      this.finish(task, ts, seq, state === 'completed' ? 'ok' : state === 'failed' || state === 'rejected' ? 'error' : 'cancelled')
    }
  }

  private tick(frame: FrameEvent, lane: TimelineLaneId): void {
    this.done({ lane, start: frame.ts, end: frame.ts, seq: frame.seq, label: labelOf(frame), outcome: 'ok' })
  }

  private finish(span: BuiltSpan, end: number, endSeq: number, outcome: Outcome): void {
    span.end = end
    span.endSeq = endSeq
    span.outcome = outcome
    this.done(span)
  }

  private done(span: BuiltSpan): void {
    if (span.lane === 'keepalive') this.probeDrawn = true
    this.emit(span)
    if (span.outcome === 'error' && span.lane !== 'errors')
      this.emit({
        lane: 'errors',
        start: span.end ?? span.start,
        end: span.end ?? span.start,
        seq: span.endSeq ?? span.seq,
        label: span.label,
        outcome: 'error',
      })
  }

  /** Keeps an open thing, handing the oldest on (as still open) when too many are. */
  private keep<K, V>(map: Map<K, V>, key: K, value: V): void {
    map.set(key, value)
    if (map.size <= MAX_OPEN) return
    const [oldest, first] = map.entries().next().value!
    map.delete(oldest)
    if (isSpan(first)) this.emit({ ...first, writtenAt: this.now })
  }
}

function isSpan(value: unknown): value is BuiltSpan {
  return typeof value === 'object' && value !== null && 'lane' in value
}

function mark(span: BuiltSpan, m: SpanMark): void {
  span.marks ??= []
  if (span.marks.length < MAX_MARKS) span.marks.push(m)
  else span.marksDropped = (span.marksDropped ?? 0) + 1
}

/** What a person reads a frame as: its method and what it is about. */
export function labelOf(frame: Pick<FrameEvent, 'method' | 'subject' | 'kind'>): string {
  const method = frame.method ?? frame.kind
  return frame.subject ? `${method} ${frame.subject}` : method
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

/** A JSON-RPC answer's result, or an HTTP+JSON body as it is. */
function resultOf(payload: unknown): unknown {
  return field(payload, 'jsonrpc') !== undefined ? field(payload, 'result') : payload
}

/** A task and its state where a value carries one: MCP's `{task: {taskId, status}}`, `{taskId, status}`; A2A's task, status update (v0.3 and v1.0). */
export function taskIn(value: unknown): { id: string; state: string; final?: boolean } | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  for (const c of [value, field(value, 'task'), field(value, 'statusUpdate'), field(value, 'status_update')]) {
    if (typeof c !== 'object' || c === null) continue
    const status = field(c, 'status')
    const state = typeof status === 'string' ? status : field(status, 'state')
    const taskId = field(c, 'taskId')
    const id =
      typeof taskId === 'string'
        ? taskId
        : typeof status === 'object' && typeof field(c, 'id') === 'string'
          ? (field(c, 'id') as string)
          : undefined
    if (id !== undefined && typeof state === 'string') return { id, state, ...(field(c, 'final') === true && { final: true }) }
  }
  return undefined
}

/** A state as one vocabulary says it: `TASK_STATE_INPUT_REQUIRED`, `input_required` → `input-required`. */
function stateName(state: string): string {
  return state
    .toLowerCase()
    .replace(/^task_state_/, '')
    .replace(/_/g, '-')
}

/** Whether a stream event is its stream's last: marked final, a message (A2A's answer), or a state that ends or pauses the task. */
function endsStream(result: unknown, state: string | undefined): boolean {
  if (taskIn(result)?.final) return true
  if (field(result, 'kind') === 'message' || field(result, 'message') !== undefined || field(result, 'msg') !== undefined) return true
  const name = state === undefined ? undefined : stateName(state)
  return name !== undefined && (TERMINAL.has(name) || PAUSED.has(name))
}

/** What a stream event is, in a word: its kind (`artifact-update`), or the name of what it carries (`artifactUpdate`). */
function eventName(result: unknown): string {
  const kind = field(result, 'kind')
  if (typeof kind === 'string') return kind
  if (typeof result === 'object' && result !== null) return Object.keys(result)[0] ?? 'event'
  return 'event'
}
