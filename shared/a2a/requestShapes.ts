import { z } from 'zod'
import type { RequestProblem, Turn } from '../contract'

/**
 * The params of the A2A requests Parallax can send again, as `@a2a-js/sdk` shapes them on the wire (v1.0:
 * SendMessageRequest, GetTaskRequest, ListTasksRequest, CancelTaskRequest, SubscribeToTaskRequest in their
 * JSON form; v0.3: `message/send`, `tasks/get`, … with `kind` fields). Checked before anything is sent.
 */
const TaskId = z.string().min(1, 'a task id is required')
const Metadata = z.record(z.string(), z.unknown()).optional()

/** A part: exactly one content (v1.0 `text`, `data`, `url`, `raw`; v0.3 `kind` with `text`, `data` or `file`). */
const Part = z
  .object({
    kind: z.enum(['text', 'data', 'file']).optional(),
    text: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    url: z.string().optional(),
    raw: z.string().optional(),
    file: z.record(z.string(), z.unknown()).optional(),
    metadata: Metadata,
  })
  .passthrough()
  .refine((p) => ['text', 'data', 'url', 'raw', 'file'].filter((k) => (p as Record<string, unknown>)[k] !== undefined).length === 1, {
    message: 'a part holds exactly one of text, data, url, raw or file',
  })

const Message = z
  .object({
    messageId: z.string().optional(),
    role: z.union([z.enum(['ROLE_USER', 'user']), z.number()], { message: 'role must be ROLE_USER (v1.0) or user (v0.3)' }).optional(),
    parts: z.array(Part).min(1, 'a message needs at least one part'),
    contextId: z.string().optional(),
    taskId: z.string().optional(),
    metadata: Metadata,
  })
  .passthrough()

const SendMessage = z
  .object({ tenant: z.string().optional(), message: Message, configuration: z.unknown().optional(), metadata: Metadata })
  .passthrough()
const TaskById = z.object({ tenant: z.string().optional(), id: TaskId }).passthrough()
const GetTask = TaskById.extend({ historyLength: z.number().int().min(0).optional() })
const ListTasks = z.object({ tenant: z.string().optional(), contextId: z.string().optional() }).passthrough()

const SHAPES: Readonly<Record<string, z.ZodType>> = {
  SendMessage,
  SendStreamingMessage: SendMessage,
  'message/send': SendMessage,
  'message/stream': SendMessage,
  GetTask,
  'tasks/get': GetTask,
  ListTasks,
  'tasks/list': ListTasks,
  CancelTask: TaskById,
  'tasks/cancel': TaskById,
  SubscribeToTask: TaskById,
  'tasks/resubscribe': TaskById,
}

/** An A2A request Parallax can send again, in terms of what the connection offers. */
export type A2aResend =
  | { op: 'send'; turn: Turn; stream: boolean }
  | { op: 'get'; taskId: string; historyLength?: number }
  | { op: 'list'; contextId?: string }
  | { op: 'cancel'; taskId: string }
  | { op: 'subscribe'; taskId: string }

/** Where params break the method's shape (nothing when they fit), or that Parallax does not send the method. */
export function checkA2aRequest(method: string, params: Record<string, unknown>): { problems: RequestProblem[]; known: boolean } {
  const shape = SHAPES[method]
  if (!shape)
    return {
      known: false,
      problems: [{ path: '', message: `Parallax does not send ${method} again (it sends messages and task requests)` }],
    }
  const checked = shape.safeParse(params)
  if (checked.success) return { known: true, problems: [] }
  return {
    known: true,
    problems: checked.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  }
}

/** The operation checked params ask for (call `checkA2aRequest` first). A message becomes a turn: its text, or its one data part. */
export function a2aResend(method: string, params: Record<string, unknown>): A2aResend {
  const p = params as { id?: string; historyLength?: number; contextId?: string; message?: { parts: Record<string, unknown>[] } }
  if (method === 'GetTask' || method === 'tasks/get') return { op: 'get', taskId: p.id!, historyLength: p.historyLength }
  if (method === 'ListTasks' || method === 'tasks/list') return { op: 'list', ...(p.contextId && { contextId: p.contextId }) }
  if (method === 'CancelTask' || method === 'tasks/cancel') return { op: 'cancel', taskId: p.id! }
  if (method === 'SubscribeToTask' || method === 'tasks/resubscribe') return { op: 'subscribe', taskId: p.id! }
  const parts = p.message!.parts
  const stream = method === 'SendStreamingMessage' || method === 'message/stream'
  const data = parts.filter((part) => part.data !== undefined)
  if (data.length === 1 && parts.length === 1) return { op: 'send', turn: { data: data[0].data as Record<string, unknown> }, stream }
  if (parts.every((part) => typeof part.text === 'string'))
    return { op: 'send', turn: { text: parts.map((part) => part.text as string).join('\n') }, stream }
  throw new Error('Parallax sends a message again when it is text, or one data part; this one holds files or several kinds of part')
}
