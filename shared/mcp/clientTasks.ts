import { randomUUID } from 'node:crypto'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type Task,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpEra } from '../contract'

/** The client's side of MCP tasks (2025-11-25): which requests from the server it takes as tasks. */
interface TasksCapability {
  list?: Record<string, unknown>
  cancel?: Record<string, unknown>
  requests?: { sampling?: { createMessage?: Record<string, unknown> }; elicitation?: { create?: Record<string, unknown> } }
}

/**
 * The client capabilities a session offers: the profile's, less the part of `tasks` Parallax could not honour.
 * A server may send a sampling or elicitation request as a task only where the profile offers sampling or
 * elicitation itself; the 2026 era has no client tasks (the 2.x client has no runtime for them), so there
 * `tasks` is not offered at all.
 */
export function offeredCapabilities(capabilities: Record<string, unknown>, era: McpEra): Record<string, unknown> {
  const { tasks, ...rest } = capabilities as { tasks?: TasksCapability } & Record<string, unknown>
  if (!tasks || era === '2026') return rest
  const requests: TasksCapability['requests'] = {
    ...(rest.sampling !== undefined && tasks.requests?.sampling?.createMessage && { sampling: tasks.requests.sampling }),
    ...(rest.elicitation !== undefined && tasks.requests?.elicitation?.create && { elicitation: tasks.requests.elicitation }),
  }
  if (!Object.keys(requests).length) return rest
  return { ...rest, tasks: { ...(tasks.list && { list: tasks.list }), ...(tasks.cancel && { cancel: tasks.cancel }), requests } }
}

/** How often Parallax suggests the server polls one of its tasks. */
const POLL_INTERVAL_MS = 1_000
/** Tasks one session keeps; the oldest finished ones go first. */
const MAX_TASKS = 1_000

interface ClientTask {
  task: Task
  /** What the underlying request came to: its result, or the JSON-RPC error it would have answered. */
  outcome?: { result: Record<string, unknown> } | { error: McpError }
  done: Promise<void>
  controller: AbortController
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled'])

/**
 * The tasks a server created on Parallax's side of one 2025-era session: a `sampling/createMessage` or
 * `elicitation/create` sent as a task is answered at once with the task, and answered as any such request
 * is (a scripted responder, a person, or Parallax) while the server polls `tasks/get`; `tasks/result` gives
 * exactly what the request itself would have answered, its result or its JSON-RPC error; `tasks/list` and
 * `tasks/cancel` where the session offered them.
 */
export class ClientTasks {
  private readonly tasks = new Map<string, ClientTask>()

  constructor(
    private readonly capability: TasksCapability,
    /** Consumes the frame the tap noted for a request from the server (as every request handler does). */
    private readonly frameOf: (id: string | number) => number | undefined,
    private readonly note: (text: string) => void,
  ) {}

  /** Whether the session takes `method` as a task. */
  takes(method: string): boolean {
    const requests = this.capability.requests
    return method === 'sampling/createMessage'
      ? !!requests?.sampling?.createMessage
      : method === 'elicitation/create' && !!requests?.elicitation?.create
  }

  /** A request the server sent as a task: the task now, and the request answered by `run` in its own time. */
  create(method: string, ttl: number | undefined, run: (signal: AbortSignal) => Promise<Record<string, unknown>>): { task: Task } {
    this.makeRoom()
    const at = new Date().toISOString()
    const task: Task = {
      taskId: randomUUID(),
      status: 'working',
      ttl: ttl ?? null,
      createdAt: at,
      lastUpdatedAt: at,
      pollInterval: POLL_INTERVAL_MS,
    }
    const controller = new AbortController()
    const entry: ClientTask = { task, controller, done: Promise.resolve() }
    entry.done = run(controller.signal).then(
      (result) => this.finish(entry, 'completed', { result }),
      (error: unknown) => {
        const mcp = error instanceof McpError ? error : new McpError(ErrorCode.InternalError, String((error as Error)?.message ?? error))
        if (controller.signal.aborted) this.finish(entry, 'cancelled', { error: mcp }, 'cancelled by the server (tasks/cancel)')
        else this.finish(entry, 'failed', { error: mcp }, mcp.message.replace(/^MCP error -?\d+: /, ''))
      },
    )
    this.tasks.set(task.taskId, entry)
    this.note(
      `the server sent ${method} as a task (${task.taskId}): it is answered as any ${method} is, and the server polls for the answer`,
    )
    return { task: { ...task } }
  }

  /** Answers the server's tasks/get, tasks/result, and tasks/list and tasks/cancel where offered. */
  install(client: Client): void {
    client.setRequestHandler(GetTaskRequestSchema, (request, extra) => {
      this.frameOf(extra.requestId)
      return { ...this.get(request.params.taskId).task }
    })
    client.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
      this.frameOf(extra.requestId)
      const entry = this.get(request.params.taskId)
      await Promise.race([entry.done, new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }))])
      const outcome = entry.outcome
      if (!outcome) throw new McpError(ErrorCode.RequestTimeout, 'the server stopped waiting for the task')
      if ('error' in outcome) throw outcome.error
      const meta = (outcome.result._meta ?? {}) as Record<string, unknown>
      return { ...outcome.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: entry.task.taskId } } } as never
    })
    if (this.capability.list)
      client.setRequestHandler(ListTasksRequestSchema, (_request, extra) => {
        this.frameOf(extra.requestId)
        return { tasks: [...this.tasks.values()].map((entry) => ({ ...entry.task })) } as never
      })
    if (this.capability.cancel)
      client.setRequestHandler(CancelTaskRequestSchema, async (request, extra) => {
        this.frameOf(extra.requestId)
        const entry = this.get(request.params.taskId)
        if (TERMINAL.has(entry.task.status))
          throw new McpError(ErrorCode.InvalidParams, `task ${entry.task.taskId} is already ${entry.task.status}: it cannot be cancelled`)
        entry.controller.abort('cancelled by the server (tasks/cancel)')
        await entry.done
        return { ...entry.task } as never
      })
  }

  /** The session ended: every task still running stops (its request is not answered). */
  close(): void {
    for (const entry of this.tasks.values()) entry.controller.abort('the connection closed')
    this.tasks.clear()
  }

  private get(taskId: string): ClientTask {
    const entry = this.tasks.get(taskId)
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `no task ${JSON.stringify(taskId)} on this client`)
    return entry
  }

  private finish(entry: ClientTask, status: 'completed' | 'failed' | 'cancelled', outcome: ClientTask['outcome'], message?: string): void {
    entry.outcome =
      status === 'cancelled'
        ? { error: new McpError(ErrorCode.InvalidRequest, 'the task was cancelled (tasks/cancel), so it has no result') }
        : outcome
    entry.task = {
      ...entry.task,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(message !== undefined && { statusMessage: message }),
    }
  }

  private makeRoom(): void {
    if (this.tasks.size < MAX_TASKS) return
    for (const [id, entry] of this.tasks)
      if (TERMINAL.has(entry.task.status)) {
        this.tasks.delete(id)
        if (this.tasks.size < MAX_TASKS) return
      }
    throw new McpError(ErrorCode.InvalidRequest, `this client already runs ${MAX_TASKS} tasks for the server`)
  }
}
