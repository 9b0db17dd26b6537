import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  RELATED_TASK_META_KEY,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js'
import { CommandError, type A2aTask, type ConversationContext, type ConversationMessage } from '../contract'
import { now } from '../runtime/clock'
import type { TaskOperations } from '../runtime/supervisedConnection'
import { errorMessage } from '../runtime/errors'
import { mcpCallMessage, mcpErrorMessage, mcpResultMessage } from './conversationTurns'
import type { McpSession, ResultCheck, SessionRequestOptions } from './session'

/** An MCP task as `tasks/get` and `tasks/list` give it (2025-11-25). */
interface McpTask {
  taskId: string
  status: string
  statusMessage?: string
  createdAt?: string
  lastUpdatedAt?: string
  ttl?: number | null
  pollInterval?: number
}

/** What MCP tasks need of their connection: its session, what the server advertised, and where conversation goes. */
export interface TaskHost {
  session(): McpSession | undefined
  capabilities(): Record<string, unknown>
  requestOptions(): SessionRequestOptions
  say(message: ConversationMessage): void
  nextTurn(): number
  /** How long a task is followed before Parallax stops (the target's `taskDeadlineMs`). */
  deadlineMs(): number
}

/** A `tasks/result` in flight: what it came to, once it has (kept, so a rejection is never left unhandled). */
interface ResultWait {
  settled?: { result: Record<string, unknown> } | { error: unknown }
  done: Promise<void>
}

/** The SDK's error for a request that got no answer in time (MCP's RequestTimeout). */
const REQUEST_TIMEOUT = -32001

/** How long a task Parallax creates is kept by the server, and the bounds on how often it is polled. */
const TASK_TTL_MS = 300_000
const POLL_MIN_MS = 100
const POLL_MAX_MS = 5_000

/** MCP's task status in the one vocabulary A2A tasks use (the timeline, parity and the Tasks dialog read it). */
export function taskState(status: string): string {
  if (status === 'input_required') return 'input-required'
  if (status === 'cancelled') return 'canceled'
  return status
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])

/**
 * MCP tasks (2025-11-25 task-augmented requests), for a server that advertises `tasks`: a tool call made as
 * a task (created, followed with `tasks/get` at the server's poll interval, its result fetched with
 * `tasks/result`), and the connection's tasks listed, got and cancelled. Each task is shown as A2A tasks are
 * (`A2aTask`, states in A2A's words), and a task's life is conversation: the call, each status it was seen
 * in, the result — so a recorded task-based session replays against an A2A agent like any other.
 */
export class McpTasks implements TaskOperations {
  /** Which turn each task Parallax created belongs to (its status messages join that turn). */
  private readonly turns = new Map<string, number>()
  /** The last status said of each task, so each change is said once. */
  private readonly said = new Map<string, string>()
  /** The last status each task was seen in (MCP's word). */
  private readonly statuses = new Map<string, string>()

  constructor(private readonly host: TaskHost) {}

  /**
   * The turn of the task a server's request belongs to (`_meta["io.modelcontextprotocol/related-task"]`): an
   * elicitation a task asks for is part of the call that made the task, so one task call stays one turn.
   */
  turnOfRequest(params: Record<string, unknown>): number | undefined {
    const related = (params._meta as Record<string, unknown> | undefined)?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined
    return typeof related?.taskId === 'string' ? this.turns.get(related.taskId) : undefined
  }

  /** Whether the server takes tool calls as tasks (`capabilities.tasks.requests.tools.call`). */
  get toolCalls(): boolean {
    const tasks = this.host.capabilities().tasks as { requests?: { tools?: { call?: unknown } } } | undefined
    return tasks?.requests?.tools?.call !== undefined
  }

  /** A tool call made as a task, followed to its end: the tool's result (its `isError` says whether the tool failed), the task's id and the status it ended in. */
  async callAsTask(
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ turn: number; result: CallToolResult; taskId: string; status: string }> {
    if (!this.toolCalls)
      throw new CommandError(
        'this server does not take tool calls as tasks (it advertises no capabilities.tasks.requests.tools.call)',
        'invalid-input',
      )
    const turn = this.host.nextTurn()
    const asked = this.request(
      'tools/call',
      { name: tool, arguments: args, task: { ttl: TASK_TTL_MS } },
      CreateTaskResultSchema as unknown as ResultCheck,
    )
    this.host.say(withTask(mcpCallMessage(tool, args, now(), turn), undefined))
    let taskId: string | undefined
    try {
      const created = (await asked).task as McpTask
      taskId = created.taskId
      this.turns.set(taskId, turn)
      this.sayStatus(created)
      const result = await this.follow(created)
      return { turn, result, taskId, status: this.statuses.get(taskId) ?? created.status }
    } catch (error) {
      // The turn ends here too: said once, as a plain call's failure is.
      this.host.say(withTask(mcpErrorMessage(errorMessage(error), now(), { turn }), taskId))
      throw error
    }
  }

  /**
   * Polls a task until it ends, and fetches its result. When it asks for input, `tasks/result` is asked at once
   * (the server delivers what it asks through it) and may wait as long as a person takes: one that gets no
   * answer in time is asked again later, as the task goes on. Past the target's task deadline Parallax stops
   * following (the task may still be running on the server) and says so.
   */
  private async follow(task: McpTask): Promise<CallToolResult> {
    const deadlineMs = this.host.deadlineMs()
    const giveUpAt = now() + deadlineMs
    let current = task
    let waiting: ResultWait | undefined
    while (!TERMINAL.has(current.status)) {
      if (current.status === 'input_required' && (!waiting || timedOut(waiting))) waiting = this.awaitResult(current.taskId)
      if (waiting?.settled && 'error' in waiting.settled && !timedOut(waiting)) throw waiting.settled.error
      const pause = Math.min(clamp(current.pollInterval ?? 1_000), giveUpAt - now())
      if (pause <= 0) throw new Error(stoppedFollowing(current, deadlineMs))
      await new Promise((resolve) => setTimeout(resolve, pause))
      if (now() >= giveUpAt) throw new Error(stoppedFollowing(current, deadlineMs))
      current = (await this.request(
        'tasks/get',
        { taskId: current.taskId },
        GetTaskResultSchema as unknown as ResultCheck,
      )) as unknown as McpTask
      this.sayStatus(current)
    }
    if (current.status === 'cancelled')
      return { content: [{ type: 'text', text: current.statusMessage ?? 'the task was cancelled' }], isError: true }
    if (!waiting || timedOut(waiting)) waiting = this.awaitResult(current.taskId)
    await waiting.done
    const settled = waiting.settled!
    if ('error' in settled) throw settled.error
    const result = settled.result as CallToolResult
    const turn = this.turns.get(current.taskId)
    if (turn !== undefined) this.host.say(withTask(mcpResultMessage(result, now(), turn), current.taskId))
    return result
  }

  /** Asks for a task's result; what it comes to is kept on the wait, never an unhandled rejection. */
  private awaitResult(taskId: string): ResultWait {
    const wait: ResultWait = {
      done: this.result(taskId).then(
        (result) => void (wait.settled = { result }),
        (error: unknown) => void (wait.settled = { error }),
      ),
    }
    return wait
  }

  private result(taskId: string): Promise<Record<string, unknown>> {
    return this.request('tasks/result', { taskId }, CallToolResultSchema as unknown as ResultCheck)
  }

  /** A status the task was seen in, once per change: a status message of its turn (or of none, for a task Parallax did not create). */
  private sayStatus(task: McpTask): void {
    this.statuses.set(task.taskId, task.status)
    const key = `${task.status}|${task.statusMessage ?? ''}`
    if (this.said.get(task.taskId) === key) return
    this.said.set(task.taskId, key)
    const turn = this.turns.get(task.taskId)
    this.host.say({
      role: 'agent',
      content: task.statusMessage ?? '',
      timestamp: now(),
      metadata: {
        kind: 'status',
        timestampSource: 'observed',
        taskId: task.taskId,
        state: taskState(task.status),
        ...(turn !== undefined && { turn }),
        ...(task.lastUpdatedAt && { reportedAt: task.lastUpdatedAt }),
      },
    })
  }

  async getTask(taskId: string): Promise<{ task: A2aTask; conversation: ConversationContext }> {
    const task = (await this.request('tasks/get', { taskId }, GetTaskResultSchema as unknown as ResultCheck)) as unknown as McpTask
    this.sayStatus(task)
    return { task: asA2aTask(task), conversation: { history: [] } }
  }

  async listTasks(): Promise<A2aTask[]> {
    this.requireCapability('list')
    const tasks: McpTask[] = []
    let cursor: string | undefined
    do {
      const page = await this.request('tasks/list', cursor ? { cursor } : {}, ListTasksResultSchema as unknown as ResultCheck)
      tasks.push(...((page.tasks ?? []) as McpTask[]))
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined
    } while (cursor && tasks.length < 10_000)
    return tasks.map(asA2aTask)
  }

  async cancelTask(taskId: string): Promise<A2aTask> {
    this.requireCapability('cancel')
    const task = (await this.request('tasks/cancel', { taskId }, CancelTaskResultSchema as unknown as ResultCheck)) as unknown as McpTask
    this.sayStatus(task)
    return asA2aTask(task)
  }

  /** Follows a task to its end (MCP has no stream to resubscribe to: it is polled), and fetches its result. */
  async resubscribe(taskId: string): Promise<A2aTask> {
    const { task } = await this.getTask(taskId)
    const mcp = (await this.request('tasks/get', { taskId }, GetTaskResultSchema as unknown as ResultCheck)) as unknown as McpTask
    if (!TERMINAL.has(mcp.status)) await this.follow(mcp)
    return task.status.state === taskState(mcp.status) && TERMINAL.has(mcp.status) ? task : (await this.getTask(taskId)).task
  }

  private requireCapability(what: 'list' | 'cancel'): void {
    const tasks = this.host.capabilities().tasks as Record<string, unknown> | undefined
    if (!tasks) throw new CommandError('this server advertises no tasks (capabilities.tasks)', 'invalid-input')
    if (tasks[what] === undefined)
      throw new CommandError(`this server's tasks capability has no "${what}": it offers no tasks/${what}`, 'invalid-input')
  }

  private request(method: string, params: Record<string, unknown>, check: ResultCheck): Promise<Record<string, unknown>> {
    const session = this.host.session()
    if (!session) return Promise.reject(new CommandError('not connected', 'failed'))
    return session.request(method, params, this.host.requestOptions(), check)
  }
}

/** Whether a `tasks/result` ended without an answer in time (the task goes on: it is asked again), rather than with the server's error. */
function timedOut(wait: ResultWait): boolean {
  return !!wait.settled && 'error' in wait.settled && (wait.settled.error as { code?: unknown } | undefined)?.code === REQUEST_TIMEOUT
}

function stoppedFollowing(task: McpTask, deadlineMs: number): string {
  return `Parallax stopped following task ${task.taskId} after ${duration(deadlineMs)} (the target's task deadline); it was still ${task.status.replace('_', ' ')} and may still be running on the server: the Tasks list can check on it`
}

function duration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`
}

function clamp(ms: number): number {
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, ms))
}

function withTask(message: ConversationMessage, taskId: string | undefined): ConversationMessage {
  return { ...message, metadata: { ...message.metadata!, asTask: true, ...(taskId && { taskId }) } }
}

/** An MCP task as A2A tasks are shown: its id, its state in A2A's words, its status message, when it last changed. */
function asA2aTask(task: McpTask): A2aTask {
  return {
    id: task.taskId,
    contextId: '',
    status: {
      state: taskState(task.status),
      ...(task.statusMessage && { message: { messageId: `${task.taskId}:status`, role: 'agent', parts: [{ text: task.statusMessage }] } }),
      ...(task.lastUpdatedAt && { timestamp: task.lastUpdatedAt }),
    },
    artifacts: [],
  }
}
