import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client as ModernClient } from '@modelcontextprotocol/client'
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import {
  CommandError,
  contentText,
  elicitationDefaults,
  serverRequestText,
  USER_REJECTED_CODE,
  type ConversationMessage,
  type ElicitSchema,
  type Root,
  type ServerRequestAnswer,
  type ServerRequestEvent,
  type ServerRequestMethod,
} from '../contract'
import { now } from '../runtime/clock'
import { errorMessage } from '../runtime/errors'
import { ClientTasks } from './clientTasks'

/** A request the server sent, as a responder sees it. */
export interface ServerRequest {
  method: ServerRequestMethod
  params: Record<string, unknown>
}

/** What a scripted responder answers: a result to send, an error to send, or nothing (someone else answers). */
export type ScriptedAnswer = ({ result: Record<string, unknown> } | { error: { code?: number; message: string } }) & {
  /** Which part of a responder answered, when it has several (its file, its --elicit). */
  source?: string
}

/** A scripted responder (canned replies from a file, a module, the CLI's --elicit): answers without a person. */
export interface ScriptedResponder {
  /** What it is, in words: the file, "--elicit accept". */
  source: string
  answer(request: ServerRequest): Promise<ScriptedAnswer | undefined>
}

/** How a connection answers what its server asks (docs/architecture.md, "Answering what servers ask"). */
export interface ClientRoleSettings {
  /** The roots offered on `roots/list`. */
  roots?: Root[]
  /** Answers before a person is asked (and instead of one, where there is none). */
  responder?: ScriptedResponder
  /**
   * Whether a person can be asked (a UI host). Without one, what no script answered is answered by
   * Parallax: a sampling request refused, an elicitation cancelled (no explicit choice was made).
   */
  askUser?: boolean
  /** How long a request waits for a person before Parallax answers that nobody did. */
  waitLimitMs?: number
}

/** What waiting for a person is bounded by when nothing else says: the server's own timeout usually ends it sooner. */
export const DEFAULT_WAIT_LIMIT_MS = 10 * 60_000

/** One request a server may send its client, as both eras' clients are told to answer it. */
export interface ServerRequestRow {
  /** The client capability the server needs offered to send it; unoffered, the SDK answers -32601. */
  capability: 'sampling' | 'elicitation' | 'roots'
  /** How the 1.x client (2025 era) knows the request: the SDK's schema of it. The 2.x client (2026 era) takes the method's name. */
  schema: typeof CreateMessageRequestSchema | typeof ElicitRequestSchema | typeof ListRootsRequestSchema
  /** Whether the server may send it as a task (2025 era, where the profile offers that: ./clientTasks.ts), answered with the task at once. */
  asTask: boolean
}

/**
 * Every request a server may send its client that Parallax answers (docs/architecture.md, "Answering what
 * servers ask"): both eras' registrations are made from this table alone, so a method is answered in
 * both or in neither. A new one is a row here, a method in the contract's `SERVER_REQUEST_METHODS`, and
 * its answer in `ClientRole.handle`.
 */
export const SERVER_REQUESTS: { readonly [M in ServerRequestMethod]: ServerRequestRow } = {
  'sampling/createMessage': { capability: 'sampling', schema: CreateMessageRequestSchema, asTask: true },
  'elicitation/create': { capability: 'elicitation', schema: ElicitRequestSchema, asTask: true },
  'roots/list': { capability: 'roots', schema: ListRootsRequestSchema, asTask: false },
}

/** The requests the offered capabilities let the server send, with their rows. */
function answerable(capabilities: Record<string, unknown>): [ServerRequestMethod, ServerRequestRow][] {
  return (Object.entries(SERVER_REQUESTS) as [ServerRequestMethod, ServerRequestRow][]).filter(([, row]) => capabilities[row.capability])
}

type Emit = (
  event: Omit<ServerRequestEvent, 'seq' | 'ts' | 'connectionId'> | { type: 'conversation'; message: ConversationMessage },
) => void

interface Waiting {
  method: ServerRequestMethod
  params: Record<string, unknown>
  frameSeq?: number
  settle(answer: ServerRequestAnswer | { cancelled: string } | { timedOut: true }): void
}

/**
 * The client side of one MCP session: it answers the server's `sampling/createMessage`,
 * `elicitation/create` and `roots/list` — for each capability the profile offered (the SDK refuses the
 * rest with -32601, and the connection flags that as an oddity). Each request is a `serverRequest` event
 * (pending while a person is asked, then answered, failed or cancelled) and two conversation messages (the
 * ask, the answer). A scripted responder answers first; then a person, when the host has one; else
 * Parallax answers that nobody could. While a person is asked, the session's own requests in flight (the
 * tool call that led the server to ask, typically) do not time out.
 */
export class ClientRole {
  private roots: Root[]
  private readonly waiting = new Map<string | number, Waiting>()
  private holdTimer: ReturnType<typeof setInterval> | undefined

  constructor(
    private readonly settings: ClientRoleSettings,
    private readonly emit: Emit,
    /** The frame that carried a request from the server, by its id (the tap records it before the SDK sees it). */
    private readonly frameOf: (id: string | number) => number | undefined,
    private readonly note: (level: 'info' | 'warn' | 'error', text: string) => void,
    /** The conversation turn a request belongs to, where it says (a task's request names its task): its ask and answer join that turn. */
    private readonly turnOf: (params: Record<string, unknown>) => number | undefined = () => undefined,
  ) {
    this.roots = settings.roots ?? []
  }

  get currentRoots(): Root[] {
    return this.roots
  }

  /**
   * Registers a handler for each request the offered capabilities let the server send (`capabilities` as
   * offered: see `offeredCapabilities`), and the tasks the server may make of sampling and elicitation.
   */
  install(client: Client, capabilities: Record<string, unknown>): void {
    this.client = client
    this.tasks?.close()
    this.tasks = capabilities.tasks
      ? new ClientTasks(capabilities.tasks as ConstructorParameters<typeof ClientTasks>[0], this.frameOf, (text) => this.note('info', text))
      : undefined
    this.tasks?.install(client)
    for (const [method, row] of answerable(capabilities))
      client.setRequestHandler(row.schema, (request: { params?: unknown }, extra: { requestId: string | number; signal: AbortSignal }) => {
        const params = (request.params ?? {}) as Record<string, unknown> & { task?: { ttl?: number } }
        // A request the server sent as a task is answered with the task at once, and handled as any other meanwhile.
        if (row.asTask && params.task && this.tasks?.takes(method))
          return this.tasks.create(method, params.task.ttl, (signal) => this.handle(method, params, extra.requestId, signal)) as never
        return this.handle(method, params, extra.requestId, extra.signal) as never
      })
  }

  /**
   * The 2026 era: a server asks inside an `input_required` answer to a call, never with a request of its own;
   * the 2.x client fulfils each embedded request through these same handlers, then retries the call with
   * the answers (a person, the scripted responder or Parallax answers, as in the 2025 era).
   */
  installModern(client: ModernClient, capabilities: Record<string, unknown>): void {
    this.client = undefined // no notifications/roots/list_changed to send on this client
    this.tasks?.close()
    this.tasks = undefined // nor client tasks: the 2026 era has none
    const register = client.setRequestHandler.bind(client) as (
      method: string,
      handler: (request: { params?: unknown }, ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) => unknown,
    ) => void
    for (const [method] of answerable(capabilities))
      register(method, (request, ctx) =>
        this.handle(method, (request.params ?? {}) as Record<string, unknown>, ctx.mcpReq.id, ctx.mcpReq.signal),
      )
  }

  private client: Client | undefined
  /** The tasks the server made of its requests this session (2025 era, where the profile offers them). */
  private tasks: ClientTasks | undefined

  /** The requests waiting for a person now. */
  get pending(): { id: string | number; method: ServerRequestMethod }[] {
    return [...this.waiting].map(([id, w]) => ({ id, method: w.method }))
  }

  /**
   * A person's answer to a waiting request: a result (checked against the MCP schema for its method, and an
   * accepted form against its required fields) or a rejection. Refused when nothing waits under that id.
   */
  answer(id: string | number, answer: ServerRequestAnswer): void {
    const waiting = this.waiting.get(id) ?? this.waiting.get(typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : String(id))
    if (!waiting)
      throw new CommandError(
        `no request ${JSON.stringify(id)} from the server is waiting for an answer (answered, cancelled or timed out)`,
        'not-found',
      )
    if ('result' in answer) {
      const result = completeResult(waiting.method, waiting.params, answer.result)
      const problems = resultProblems(waiting.method, waiting.params, result)
      if (problems.length) throw new CommandError(`that answer would not do: ${problems.join('; ')}`, 'invalid-input')
      return waiting.settle({ result })
    }
    waiting.settle(answer)
  }

  /** New roots: kept, and announced to the server (`notifications/roots/list_changed`) when the profile offers that. */
  async setRoots(roots: Root[], capabilities: Record<string, unknown>, live: boolean): Promise<'sent' | 'not-offered' | 'not-live'> {
    this.roots = roots
    const offered = (capabilities.roots as { listChanged?: boolean } | undefined)?.listChanged === true
    if (!offered) return 'not-offered'
    if (!live || !this.client) return 'not-live'
    await this.client.sendRootsListChanged()
    return 'sent'
  }

  /** The session ended: nothing waits any more (the server will not read an answer). */
  close(reason: string): void {
    this.tasks?.close()
    this.tasks = undefined
    for (const waiting of this.waiting.values()) waiting.settle({ cancelled: reason })
    this.waiting.clear()
    this.client = undefined
    this.stopHolding()
  }

  private async handle(
    method: ServerRequestMethod,
    params: Record<string, unknown>,
    id: string | number,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const frameSeq = this.frameOf(id)
    const base = { type: 'serverRequest' as const, id, method, params, ...(frameSeq !== undefined && { frameSeq }) }
    const turn = this.turnOf(params)
    const say = (message: ConversationMessage) =>
      this.emit({ type: 'conversation', message: turn === undefined ? message : { ...message, metadata: { ...message.metadata!, turn } } })
    say(askMessage(method, params, id))
    const answered = (result: Record<string, unknown>, by: 'user' | 'script' | 'parallax', source?: string) => {
      this.emit({ ...base, state: 'answered', by, ...(source && { source }), result, reason: answerText(method, result) })
      say(answerMessage(method, id, answerText(method, result), by, result))
      return result
    }
    const failed = (code: number, message: string, by: 'user' | 'script' | 'parallax', source?: string): never => {
      this.emit({ ...base, state: 'failed', by, ...(source && { source }), error: { code, message }, reason: message })
      say(answerMessage(method, id, `refused: ${message}`, by, undefined, true))
      throw refusal(code, message)
    }

    if (method === 'roots/list') return answered({ roots: this.roots }, 'parallax', 'the target’s roots')

    const responder = this.settings.responder
    if (responder) {
      let scripted: ScriptedAnswer | undefined
      try {
        scripted = await responder.answer({ method, params })
      } catch (error) {
        return failed(ErrorCode.InternalError, `the scripted responder failed: ${errorMessage(error)}`, 'script', responder.source)
      }
      const source = scripted?.source ?? responder.source
      if (scripted && 'error' in scripted)
        return failed(scripted.error.code ?? USER_REJECTED_CODE, scripted.error.message, 'script', source)
      if (scripted) {
        const result = completeResult(method, params, scripted.result)
        // A script's choice stands even when it leaves a required field empty: the server judges it (and the log says so).
        const problems = resultProblems(method, params, result, false)
        const missing = missingRequired(method, params, result)
        if (missing.length && !problems.length)
          this.note('warn', `the scripted answer to ${method} accepts without required field(s) ${missing.join(', ')}; sent as it is`)
        if (problems.length)
          return failed(ErrorCode.InternalError, `the scripted responder's answer is not valid: ${problems.join('; ')}`, 'script', source)
        return answered(result, 'script', source)
      }
    }

    if (!this.settings.askUser) {
      if (method === 'elicitation/create') return answered({ action: 'cancel' }, 'parallax', 'nobody to ask')
      return failed(
        USER_REJECTED_CODE,
        'nobody is here to answer a sampling request (give the target a scripted responder: --sampling FILE on the command line)',
        'parallax',
      )
    }

    const limit = this.settings.waitLimitMs ?? DEFAULT_WAIT_LIMIT_MS
    const outcome = await new Promise<ServerRequestAnswer | { cancelled: string } | { timedOut: true }>((resolve) => {
      const timer = setTimeout(() => settle({ timedOut: true }), limit)
      const onAbort = () => settle({ cancelled: `the server stopped waiting${abortReason(signal)}` })
      const settle = (value: ServerRequestAnswer | { cancelled: string } | { timedOut: true }) => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        if (this.waiting.get(id) === entry) this.waiting.delete(id)
        if (this.waiting.size === 0) this.stopHolding()
        resolve(value)
      }
      const entry: Waiting = { method, params, frameSeq, settle }
      this.waiting.set(id, entry)
      signal.addEventListener('abort', onAbort, { once: true })
      this.holdTimeouts()
      this.emit({ ...base, state: 'pending', waitLimitMs: limit })
    })
    if ('cancelled' in outcome) {
      this.emit({ ...base, state: 'cancelled', reason: outcome.cancelled })
      say(answerMessage(method, id, `not answered: ${outcome.cancelled}`, 'parallax', undefined, true))
      throw refusal(ErrorCode.RequestTimeout, outcome.cancelled)
    }
    if ('timedOut' in outcome) {
      if (method === 'elicitation/create')
        return answered({ action: 'cancel' }, 'parallax', `no answer within ${Math.round(limit / 1000)} s`)
      return failed(USER_REJECTED_CODE, `nobody answered within ${Math.round(limit / 1000)} s`, 'parallax')
    }
    if ('reject' in outcome) return failed(USER_REJECTED_CODE, outcome.reject, 'user')
    return answered(completeResult(method, params, outcome.result), 'user')
  }

  /**
   * While a person is asked, the session's own requests in flight keep waiting: the SDK's timeout of each
   * is restarted every second (as progress would restart it), so the tool call that led the server to
   * ask does not fail because the person took a minute.
   */
  private holdTimeouts(): void {
    if (this.holdTimer) return
    this.holdTimer = setInterval(() => {
      const protocol = this.client as unknown as
        { _timeoutInfo?: Map<number, unknown>; _resetTimeout?: (id: number) => boolean } | undefined
      for (const requestId of protocol?._timeoutInfo?.keys() ?? []) {
        try {
          protocol?._resetTimeout?.(requestId)
        } catch {
          // past its total limit: the SDK fails it, as it should
        }
      }
    }, 1000)
    this.holdTimer.unref?.()
  }

  private stopHolding(): void {
    if (this.holdTimer) clearInterval(this.holdTimer)
    this.holdTimer = undefined
  }

  /** A request the server may not send: the profile did not offer its capability (the SDK answers -32601). */
  static unoffered(method: string, capabilities: Record<string, unknown>): string | undefined {
    const capability = (SERVER_REQUESTS as Partial<Record<string, ServerRequestRow>>)[method]?.capability
    if (!capability || capabilities[capability]) return undefined
    return capability
  }
}

/** An answer made whole: what its shorthand implies (a sampling reply's role, model and text block) and an accepted form's defaults for fields it leaves out. */
function completeResult(
  method: ServerRequestMethod,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
): Record<string, unknown> {
  if (method === 'sampling/createMessage') {
    const text = typeof result.text === 'string' ? result.text : undefined
    const { text: _text, ...rest } = result
    void _text
    return {
      role: 'assistant',
      model: 'parallax',
      ...(text !== undefined && { content: { type: 'text', text } }),
      ...rest,
    }
  }
  // SEP-1034: a field the answer leaves out takes the form's default.
  if (method === 'elicitation/create' && result.action === 'accept' && params.mode !== 'url') {
    const defaults = elicitationDefaults(params.requestedSchema as ElicitSchema | undefined)
    if (result.content === undefined || Object.keys(defaults).some((name) => !(name in (result.content as object))))
      return { ...result, content: { ...defaults, ...(result.content as Record<string, unknown> | undefined) } }
  }
  return result
}

/** Why an answer is not one the server can read: the MCP schema for its method, and (unless `requiredToo` is false) an accepted form's required fields. */
function resultProblems(
  method: ServerRequestMethod,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
  requiredToo = true,
): string[] {
  const schema =
    method === 'sampling/createMessage'
      ? params.tools || params.toolChoice
        ? CreateMessageResultWithToolsSchema
        : CreateMessageResultSchema
      : method === 'elicitation/create'
        ? ElicitResultSchema
        : undefined
  const problems: string[] = []
  if (schema) {
    const parsed = schema.safeParse(result)
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${i.path.join('.') || '(result)'}: ${i.message}`))
  }
  const missing = requiredToo ? missingRequired(method, params, result) : []
  if (missing.length) problems.push(`required: ${missing.join(', ')}`)
  return problems
}

/** The required fields an accepted form leaves empty. */
function missingRequired(method: ServerRequestMethod, params: Record<string, unknown>, result: Record<string, unknown>): string[] {
  if (method !== 'elicitation/create' || result.action !== 'accept' || params.mode === 'url') return []
  const content = (result.content ?? {}) as Record<string, unknown>
  return ((params.requestedSchema as ElicitSchema | undefined)?.required ?? []).filter(
    (name) => content[name] === undefined || content[name] === '',
  )
}

const ASKS: Record<ServerRequestMethod, string> = {
  'sampling/createMessage': 'asks for a model’s reply',
  'elicitation/create': 'asks the user',
  'roots/list': 'asks for the client’s roots',
}

function askMessage(method: ServerRequestMethod, params: Record<string, unknown>, id: string | number): ConversationMessage {
  const text = serverRequestText(method, params)
  return {
    role: 'agent',
    content: `${ASKS[method]} (${method})${text ? `: ${text}` : ''}`,
    timestamp: now(),
    metadata: { kind: 'ask', timestampSource: 'observed', method, requestId: id, data: params },
  }
}

function answerMessage(
  method: ServerRequestMethod,
  id: string | number,
  text: string,
  by: 'user' | 'script' | 'parallax',
  result?: Record<string, unknown>,
  refused = false,
): ConversationMessage {
  return {
    role: 'user',
    content: text,
    timestamp: now(),
    metadata: {
      kind: 'answer',
      timestampSource: 'observed',
      method,
      requestId: id,
      by,
      ...(result && { data: result }),
      ...(refused && { refused }),
    },
  }
}

/** An answer in words: the reply's text, the elicitation's action and content, the roots. */
function answerText(method: ServerRequestMethod, result: Record<string, unknown>): string {
  if (method === 'sampling/createMessage') {
    const model = typeof result.model === 'string' ? ` (${result.model})` : ''
    return `${contentText(result.content)}${model}`
  }
  if (method === 'elicitation/create')
    return result.content && Object.keys(result.content).length
      ? `${String(result.action)} ${JSON.stringify(result.content)}`
      : String(result.action)
  const roots = (result.roots ?? []) as Root[]
  return roots.length ? roots.map((r) => (r.name ? `${r.name} ${r.uri}` : r.uri)).join(', ') : 'no roots'
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : ''
  return text ? ` (${text})` : ''
}

/**
 * Parallax's JSON-RPC error answer to a server's request, in the words given: the SDKs send a thrown value's
 * `code` and `message` as they are, and an `McpError`'s message would carry "MCP error <code>: ", which the
 * server's SDK then puts before it a second time.
 */
function refusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { code })
}
