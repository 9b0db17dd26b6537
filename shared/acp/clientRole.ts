import { RequestError, type ClientApp, type RequestPermissionResponse } from '@agentclientprotocol/sdk'
import { CommandError, type ConversationMessage, type ServerRequestAnswer, type ServerRequestEvent } from '../contract'
import { now } from '../runtime/clock'
import { errorMessage } from '../runtime/errors'
import { Terminals } from './terminals'
import { OutsideWorkspace, type Workspace } from './workspace'

/** What answers for the user when no person does (the CLI, replays): allow or reject every permission request, run or refuse every command. */
export interface AcpPolicy {
  permission?: 'allow' | 'reject'
  terminal?: 'allow' | 'reject'
}

/** How one ACP connection plays the client (docs/architecture.md, "Answering what servers ask"). */
export interface AcpClientSettings {
  /** Whether a person can be asked (a UI host). */
  askUser: boolean
  policy?: AcpPolicy
  /** The folder fs and terminal requests are confined to; without one, neither is offered. */
  workspace?: Workspace
  /** What this connection offered in `initialize`: only these requests are answered (the SDK answers the rest -32601). */
  offered: { read: boolean; write: boolean; terminal: boolean }
  /** How long a request waits for a person before Parallax answers that nobody did. */
  waitLimitMs?: number
  /** The prompt turn in flight, if any: an ask and its answer belong to it in the timeline. */
  turn?: () => number | undefined
}

type Emit = (
  event: Omit<ServerRequestEvent, 'seq' | 'ts' | 'connectionId'> | { type: 'conversation'; message: ConversationMessage },
) => void

type Outcome = { answer: ServerRequestAnswer } | { cancelled: string } | { timedOut: true }

interface Waiting {
  method: string
  params: Record<string, unknown>
  settle(outcome: Outcome): void
}

interface PermissionOption {
  optionId: string
  name: string
  kind: string
}

const WAIT_LIMIT_MS = 10 * 60_000

/**
 * How many of the agent's requests may wait for a person at once. A person answers a handful; past this the
 * agent is flooding the client, and each request more is refused at once (a JSON-RPC error) instead of kept.
 */
export const MAX_WAITING = 100

/**
 * The client side of one ACP connection: `session/request_permission` shown to the user (or answered by the
 * policy, else refused: nobody is there to allow it), `fs/read_text_file` and `fs/write_text_file` within the
 * workspace the user chose, and `terminal/*` — each command shown and approved before it runs. Each request
 * is a `serverRequest` event (pending while a person is asked, then answered, failed or cancelled) and, for
 * permissions and commands, two conversation messages (the ask, the answer).
 */
export class AcpClientRole {
  private readonly waiting = new Map<string, Waiting>()
  private readonly terminals = new Terminals()

  constructor(
    private readonly settings: AcpClientSettings,
    private readonly emit: Emit,
    /** The frame that carried a request from the agent, by its id (the tap records it before the SDK sees it). */
    private readonly frameOf: (id: string | number) => number | undefined,
    private readonly note: (level: 'info' | 'warn', text: string) => void,
    /** Something the agent does wrong, said once as an oddity (a finding). */
    private readonly oddity: (kind: string, text: string) => void,
  ) {}

  install(app: ClientApp): void {
    app.onRequest('session/request_permission', ({ params, requestId, signal }) =>
      this.permission(params as unknown as Record<string, unknown>, requestId ?? '', signal),
    )
    const { offered, workspace } = this.settings
    if (offered.read && workspace)
      app.onRequest('fs/read_text_file', ({ params, requestId }) =>
        this.fs(requestId ?? '', 'fs/read_text_file', params as unknown as Record<string, unknown>, async () => ({
          content: await workspace.read(params.path, params.line, params.limit),
        })).then((result) => ({ content: String(result.content) })),
      )
    if (offered.write && workspace)
      app.onRequest('fs/write_text_file', ({ params, requestId }) =>
        this.fs(requestId ?? '', 'fs/write_text_file', params as unknown as Record<string, unknown>, async () => {
          await workspace.write(params.path, params.content)
          return {}
        }).then(() => undefined),
      )
    if (offered.terminal && workspace) {
      app.onRequest('terminal/create', ({ params, requestId, signal }) =>
        this.createTerminal(params as unknown as Record<string, unknown>, requestId ?? '', signal),
      )
      app.onRequest('terminal/output', ({ params }) => this.terminalCall(() => this.terminals.output(params.terminalId)))
      app.onRequest('terminal/wait_for_exit', ({ params }) => this.terminalCall(() => this.terminals.waitForExit(params.terminalId)))
      app.onRequest('terminal/kill', ({ params }) => this.terminalCall(() => (this.terminals.kill(params.terminalId), {})))
      app.onRequest('terminal/release', ({ params }) => this.terminalCall(() => (this.terminals.release(params.terminalId), {})))
    }
  }

  /** The requests waiting for a person now. */
  get pending(): { id: string; method: string }[] {
    return [...this.waiting].map(([id, w]) => ({ id, method: w.method }))
  }

  /** A person's answer: a permission option (`{optionId}`), a command run (`{}`), or a rejection. */
  answer(id: string | number, answer: ServerRequestAnswer): void {
    const waiting = this.waiting.get(String(id))
    if (!waiting)
      throw new CommandError(
        `no request ${JSON.stringify(id)} from the agent is waiting for an answer (answered, cancelled or timed out)`,
        'not-found',
      )
    if ('result' in answer && waiting.method === 'session/request_permission') {
      const optionId = chosenOption(answer.result)
      const options = (waiting.params.options ?? []) as PermissionOption[]
      if (!options.some((o) => o.optionId === optionId))
        throw new CommandError(
          `that answer would not do: choose one of the agent's options (${options.map((o) => o.optionId).join(', ')})`,
          'invalid-input',
        )
    }
    waiting.settle({ answer })
  }

  /** The turn was cancelled (`session/cancel`): every permission still asked is answered `cancelled`, as ACP requires. */
  cancelPermissions(reason: string): void {
    for (const waiting of this.waiting.values()) if (waiting.method === 'session/request_permission') waiting.settle({ cancelled: reason })
  }

  /** The connection closed: nothing waits any more, and every terminal is killed. */
  close(reason: string): void {
    for (const waiting of this.waiting.values()) waiting.settle({ cancelled: reason })
    this.waiting.clear()
    this.terminals.dispose()
  }

  private async permission(params: Record<string, unknown>, id: string | number, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const method = 'session/request_permission'
    if (!this.settings.policy?.permission && this.settings.askUser) this.refuseWhenFlooded(method, id)
    const options = (Array.isArray(params.options) ? params.options : []) as PermissionOption[]
    const toolCall = (params.toolCall ?? {}) as { title?: unknown; toolCallId?: unknown; rawInput?: unknown }
    const what = typeof toolCall.title === 'string' && toolCall.title ? toolCall.title : String(toolCall.toolCallId ?? 'a tool call')
    const base = this.base(id, method, params)
    this.say('agent', `asks permission: ${what} (${options.map((o) => o.name).join(' / ')})`, 'ask', method, id, params)
    const pick = (kinds: string[]) => kinds.map((k) => options.find((o) => o.kind === k)).find(Boolean)
    const selected = (option: PermissionOption, by: 'user' | 'script' | 'parallax', source?: string, why?: string) => {
      const result: RequestPermissionResponse = { outcome: { outcome: 'selected', optionId: option.optionId } }
      this.emit({ ...base, state: 'answered', by, ...(source && { source }), result, reason: why ? `${option.name}: ${why}` : option.name })
      this.say('user', option.name, 'answer', method, id, result, by)
      return result
    }
    const cancelled = (reason: string, by: 'user' | 'parallax' = 'parallax') => {
      const result: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } }
      this.emit({ ...base, state: 'cancelled', by, result, reason })
      this.say('user', `not answered: ${reason}`, 'answer', method, id, result, by)
      return result
    }
    const refuse = (why: string, by: 'user' | 'script' | 'parallax', source?: string) => {
      const option = pick(['reject_once', 'reject_always'])
      if (option) return selected(option, by, source, why)
      return cancelled(why, by === 'user' ? 'user' : 'parallax')
    }

    const policy = this.settings.policy?.permission
    if (policy === 'allow') {
      const option = pick(['allow_once', 'allow_always'])
      if (option) return selected(option, 'script', 'policy: allow')
      return refuse('the policy allows, but the agent offered no option that allows', 'script', 'policy: allow')
    }
    if (policy === 'reject') return refuse('the policy rejects every permission request', 'script', 'policy: reject')
    if (!this.settings.askUser) return refuse('nobody is here to allow it (give a policy: --permission allow)', 'parallax')

    const outcome = await this.waitForPerson(id, method, params, base, signal)
    if ('cancelled' in outcome) return cancelled(outcome.cancelled)
    if ('timedOut' in outcome) return refuse(`nobody answered within ${Math.round(this.waitLimit / 1000)} s`, 'parallax')
    if ('reject' in outcome.answer) return refuse(outcome.answer.reject, 'user')
    const optionId = chosenOption(outcome.answer.result)
    return selected(
      options.find((o) => o.optionId === optionId)!,
      'user',
    )
  }

  private async fs(
    id: string | number,
    method: string,
    params: Record<string, unknown>,
    run: () => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const base = this.base(id, method, {
      ...params,
      ...(typeof params.content === 'string' && { content: `${params.content.length} characters` }),
    })
    try {
      const result = await run()
      const reason = method === 'fs/write_text_file' ? `wrote ${String(params.path)}` : `read ${String(params.path)}`
      this.emit({ ...base, state: 'answered', by: 'parallax', source: 'the workspace', reason })
      return result
    } catch (error) {
      const message = errorMessage(error)
      this.emit({ ...base, state: 'failed', by: 'parallax', error: { code: -32602, message }, reason: message })
      if (error instanceof OutsideWorkspace) this.note('warn', `refused ${method} for ${String(params.path)}: ${message}`)
      throw error instanceof OutsideWorkspace
        ? RequestError.invalidParams(undefined, message)
        : RequestError.internalError(undefined, message)
    }
  }

  private async createTerminal(params: Record<string, unknown>, id: string | number, signal: AbortSignal): Promise<{ terminalId: string }> {
    const method = 'terminal/create'
    if (!this.settings.policy?.terminal && this.settings.askUser) this.refuseWhenFlooded(method, id)
    const args = Array.isArray(params.args) ? params.args.map(String) : []
    const line = [String(params.command), ...args].join(' ')
    const base = this.base(id, method, params)
    this.say('agent', `asks to run: ${line}`, 'ask', method, id, params)
    const refused = (why: string, by: 'user' | 'script' | 'parallax', source?: string): never => {
      this.emit({ ...base, state: 'failed', by, ...(source && { source }), error: { code: -32603, message: why }, reason: why })
      this.say('user', `refused: ${why}`, 'answer', method, id, undefined, by)
      throw RequestError.internalError(undefined, `the user did not let this command run: ${why}`)
    }
    const policy = this.settings.policy?.terminal
    let by: 'user' | 'script' = 'script'
    if (policy === 'reject') refused('the policy refuses every command', 'script', 'policy: reject')
    else if (policy !== 'allow') {
      if (!this.settings.askUser) refused('nobody is here to approve it (give a policy: --terminal allow)', 'parallax')
      const outcome = await this.waitForPerson(id, method, params, base, signal)
      if ('cancelled' in outcome) refused(outcome.cancelled, 'parallax')
      else if ('timedOut' in outcome) refused(`nobody approved it within ${Math.round(this.waitLimit / 1000)} s`, 'parallax')
      else if ('reject' in outcome.answer) refused(outcome.answer.reject, 'user')
      by = 'user'
    }
    let cwd: string
    try {
      cwd = await this.settings.workspace!.cwd(typeof params.cwd === 'string' ? params.cwd : undefined)
    } catch (error) {
      return refused(errorMessage(error), 'parallax')
    }
    const env = Object.fromEntries(
      (Array.isArray(params.env) ? params.env : []).map((v: { name?: unknown; value?: unknown }) => [String(v?.name), String(v?.value)]),
    )
    const terminalId = this.terminals.start(
      { command: String(params.command), args, env, cwd, outputByteLimit: params.outputByteLimit as number | null | undefined },
      (terminal, exit) =>
        this.note(
          'info',
          `terminal ${terminal} (${line}) ended: ${exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`}`,
        ),
    )
    const result = { terminalId }
    this.emit({
      ...base,
      state: 'answered',
      by,
      ...(by === 'script' && { source: 'policy: allow' }),
      result,
      reason: `running in ${cwd} as ${terminalId}`,
    })
    this.say('user', `run (${terminalId}, in ${cwd})`, 'answer', method, id, result, by)
    return result
  }

  private async terminalCall<T>(run: () => T | Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      throw RequestError.invalidParams(undefined, errorMessage(error))
    }
  }

  /** Past `MAX_WAITING` requests waiting for a person, one more is refused at once: a finding, said once. */
  private refuseWhenFlooded(method: string, id: string | number): void {
    if (this.waiting.size < MAX_WAITING) return
    this.frameOf(id) // nothing will point at its frame: let it go
    const why = `${MAX_WAITING} requests from the agent are already waiting for a person; Parallax refuses more until some are answered`
    this.oddity(
      'waiting-flood',
      `the agent floods Parallax with requests that wait for a person (${method}): ${MAX_WAITING} are waiting, every one more is refused at once`,
    )
    throw RequestError.internalError(undefined, why)
  }

  private get waitLimit(): number {
    return this.settings.waitLimitMs ?? WAIT_LIMIT_MS
  }

  /** Waits for a person's answer (shown as pending), the agent's cancel, the connection's close, or the limit. */
  private waitForPerson(
    id: string | number,
    method: string,
    params: Record<string, unknown>,
    base: ReturnType<AcpClientRole['base']>,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const key = String(id)
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => settle({ timedOut: true }), this.waitLimit)
      const onAbort = () => settle({ cancelled: 'the agent stopped waiting ($/cancel_request)' })
      const settle = (outcome: Outcome) => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        if (this.waiting.get(key) === entry) this.waiting.delete(key)
        resolve(outcome)
      }
      const entry: Waiting = { method, params, settle }
      this.waiting.set(key, entry)
      signal.addEventListener('abort', onAbort, { once: true })
      this.emit({ ...base, state: 'pending', waitLimitMs: this.waitLimit })
    })
  }

  private base(id: string | number, method: string, params: Record<string, unknown>) {
    const frameSeq = this.frameOf(id)
    return { type: 'serverRequest' as const, id, method, params, ...(frameSeq !== undefined && { frameSeq }) }
  }

  private say(
    role: 'agent' | 'user',
    content: string,
    kind: 'ask' | 'answer',
    method: string,
    id: string | number,
    data?: unknown,
    by?: 'user' | 'script' | 'parallax',
  ): void {
    this.emit({
      type: 'conversation',
      message: {
        role,
        content,
        timestamp: now(),
        metadata: {
          kind,
          timestampSource: 'observed',
          method,
          requestId: id,
          ...(this.settings.turn?.() !== undefined && { turn: this.settings.turn() }),
          ...(by && { by }),
          ...(data !== undefined && { data }),
        },
      },
    })
  }
}

/** The option a person chose: `{optionId}`, or ACP's own `{outcome: {outcome: 'selected', optionId}}`. */
function chosenOption(result: Record<string, unknown>): string | undefined {
  if (typeof result.optionId === 'string') return result.optionId
  const outcome = result.outcome as { optionId?: unknown } | undefined
  return typeof outcome?.optionId === 'string' ? outcome.optionId : undefined
}
