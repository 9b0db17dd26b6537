import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js'
import { CommandError, type A2aTask, type ConversationContext, type ConversationMessage } from '../contract'
import { now } from '../runtime/clock'
import type { TaskOperations } from '../runtime/supervisedConnection'
import { mcpCallMessage, mcpResultMessage } from './conversationTurns'
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
}

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
    const created = (await asked).task as McpTask
    this.turns.set(created.taskId, turn)
    this.sayStatus(created)
    const result = await this.follow(created)
    return { turn, result, taskId: created.taskId, status: this.statuses.get(created.taskId) ?? created.status }
  }

  /** Polls a task until it ends (or asks for input: then `tasks/result` delivers what the server asks, and waits); its result. */
  private async follow(task: McpTask): Promise<CallToolResult> {
    let current = task
    let waiting: Promise<Record<string, unknown>> | undefined
    while (!TERMINAL.has(current.status)) {
      if (current.status === 'input_required' && !waiting) waiting = this.result(current.taskId)
      await new Promise((resolve) => setTimeout(resolve, clamp(current.pollInterval ?? 1_000)))
      current = (await this.request(
        'tasks/get',
        { taskId: current.taskId },
        GetTaskResultSchema as unknown as ResultCheck,
      )) as unknown as McpTask
      this.sayStatus(current)
    }
    if (current.status === 'cancelled') {
      waiting?.catch(() => undefined)
      return { content: [{ type: 'text', text: current.statusMessage ?? 'the task was cancelled' }], isError: true }
    }
    const result = (await (waiting ?? this.result(current.taskId))) as CallToolResult
    const turn = this.turns.get(current.taskId)
    if (turn !== undefined) this.host.say(withTask(mcpResultMessage(result, now(), turn), current.taskId))
    return result
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
