import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { asksProgress, CommandError, type ConversationMessage, type RequestAnswer } from '../contract'
import { now } from '../runtime/clock'
import { errorMessage, jsonRpcErrorWords } from '../runtime/errors'
import type { TappedFrame } from '../runtime/jsonRpcTap'
import { noteWholeInFrame } from '../runtime/safeJson'
import type { ExchangeOptions } from '../runtime/supervisedConnection'
import { mcpCallMessage, mcpErrorMessage, mcpResultMessage, type RequestIds, type SentRequest } from './conversationTurns'
import { checkRequest, mcpAnswerMessage, mcpRequestMessage, resultProblems } from './requests'
import { requestOptions, type McpSession } from './session'

/** What the user's requests need of their connection. */
export interface RequestHost {
  /** The session, while the connection is live. */
  liveSession(): McpSession | undefined
  /** The connection's state, for saying why there is no session. */
  state(): string
  timeoutMs(): number
  say(message: ConversationMessage): void
  /** What a request the user made changed of the session (./sessionChoices.ts). */
  answered(method: string, params: Record<string, unknown> | undefined): void
}

/**
 * The user's requests to the server: tool calls as conversation turns, and any request by method, each
 * checked before it is sent, tracked while in flight (cancellable by its id, its answer's frame noted), and
 * said as what it came to — the result, the server's error, or no answer (a timeout, the user's cancel, a
 * lost connection).
 */
export class UserRequests {
  private turn = 0
  /** The id of the last request handed to the transport (the SDK sends synchronously as it asks). */
  private lastRequestId: string | number | undefined
  /** Requests in flight, by request id: the number of the frame that answered each, once it came. */
  private readonly answeredBy = new Map<string | number, { seq: number | undefined; cut: boolean } | undefined>()
  /** The user's requests in flight (tool calls and requests by method), by JSON-RPC id: what `cancel` aborts. */
  private readonly cancellable = new Map<string | number, AbortController>()

  constructor(private readonly host: RequestHost) {}

  /** The next conversation turn (a tool call, plain or as a task). */
  nextTurn(): number {
    return ++this.turn
  }

  /** The frames of the user's requests: the id each went out with, and the frame that answered it. */
  read(direction: 'out' | 'in', frame: TappedFrame & { seq?: number }): void {
    if (frame.kind === 'request' && direction === 'out') this.lastRequestId = frame.id
    else if (
      direction === 'in' &&
      frame.id !== undefined &&
      this.answeredBy.has(frame.id) &&
      (frame.kind === 'response' || frame.kind === 'error')
    )
      this.answeredBy.set(frame.id, { seq: frame.seq, cut: frame.truncated !== undefined })
  }

  /** One `tools/call`, recorded as a conversation turn: the call from the user, the result from the agent. Throws when no result came. */
  async callTool(tool: string, args: Record<string, unknown>, progress = true): Promise<{ turn: number; result: CallToolResult }> {
    const { turn, answer, error } = await this.toolExchange(tool, args, progress)
    if (answer.outcome !== 'result') throw error
    return { turn, result: answer.result as CallToolResult }
  }

  /**
   * Any request by method, for the user (docs/architecture.md, "One command API"): checked against the
   * MCP SDK's schema for it before anything is sent, then answered as the server answers. It asks for
   * progress as `asksProgress` says (a token the server may report against, each report restarting the
   * timeout) and can be cancelled; a `tools/call` is a turn, as `callTool` makes it.
   */
  async request(method: string, params: Record<string, unknown> | undefined, options: ExchangeOptions = {}): Promise<RequestAnswer> {
    checkRequest(method, params)
    const session = this.host.liveSession()
    if (!session) throw new CommandError(`not connected (${this.host.state()})`, 'failed')
    const progress = asksProgress(method, options.progress)
    if (method === 'tools/call') {
      const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> }
      return (await this.toolExchange(name, args ?? {}, progress)).answer
    }
    const conversation = options.conversation ?? true
    const askedAt = now()
    const controller = new AbortController()
    this.lastRequestId = undefined
    const answer = session.request(method, params, { ...requestOptions(this.host.timeoutMs(), progress), signal: controller.signal })
    const ids = this.track(controller, progress)
    if (conversation) this.host.say(mcpRequestMessage(method, params, askedAt, this.sent(ids)))
    try {
      const result = (await answer) as Record<string, unknown>
      // What a UI is shown of a large result names the frame that holds it whole.
      const frameSeq = this.cutInFrame(ids.requestId)
      noteWholeInFrame(result, frameSeq)
      this.host.answered(method, params)
      const problems = resultProblems(method, result)
      if (conversation) {
        const message = mcpAnswerMessage(method, result, now(), ids.requestId)
        noteWholeInFrame(message, frameSeq)
        this.host.say(message)
      }
      return { method, ...ids, durationMs: now() - askedAt, outcome: 'result', result, ...(problems.length > 0 && { problems }) }
    } catch (error) {
      const failure = this.failureOf(method, error, controller, ids, askedAt)
      if (conversation) {
        const text = failure.outcome === 'error' ? failure.error.message : noAnswerText(failure)
        const details =
          failure.outcome === 'error'
            ? { code: failure.error.code, ...(failure.error.data !== undefined && { data: failure.error.data }) }
            : { noAnswer: failure.outcome }
        this.host.say(mcpErrorMessage(text, now(), { method, requestId: ids.requestId, ...details }))
      }
      return failure
    } finally {
      this.untrack(ids.requestId)
    }
  }

  /** Stops waiting for a request of the user's and tells the server (`notifications/cancelled`, sent by the SDK). */
  cancel(requestId: string | number, reason: string): boolean {
    const controller = this.cancellable.get(requestId) ?? this.cancellable.get(Number(requestId))
    if (!controller || controller.signal.aborted) return false
    controller.abort(reason)
    return true
  }

  /**
   * One `tools/call` as a turn, and what it came to: the result, the server's error, or no answer (a
   * timeout, the user's cancel, a lost connection); `error` is what the SDK threw, for callers that throw it.
   */
  private async toolExchange(
    tool: string,
    args: Record<string, unknown>,
    progress = true,
  ): Promise<{ turn: number; answer: RequestAnswer; error?: unknown }> {
    const session = this.host.liveSession()
    if (!session) throw new Error(`not connected (${this.host.state()})`)
    const turn = ++this.turn
    const askedAt = now()
    const controller = new AbortController()
    // The call is on its way (over stdio, already written) before the turn is recorded: the server starts
    // at once and the recording overlaps its work. (Its frame is recorded first, then this message.)
    this.lastRequestId = undefined
    const answer = session.request(
      'tools/call',
      { name: tool, arguments: args },
      { ...requestOptions(this.host.timeoutMs(), progress), signal: controller.signal },
      CallToolResultSchema,
    )
    const ids = this.track(controller, progress)
    this.host.say(mcpCallMessage(tool, args, askedAt, turn, this.sent(ids)))
    try {
      const result = (await answer) as CallToolResult
      // What a UI is shown of a large result names the frame that holds it whole.
      const frameSeq = this.cutInFrame(ids.requestId)
      const message = mcpResultMessage(result, now(), turn, ids)
      noteWholeInFrame(result, frameSeq)
      noteWholeInFrame(message, frameSeq)
      this.host.say(message)
      return { turn, answer: { method: 'tools/call', ...ids, durationMs: now() - askedAt, outcome: 'result', result } }
    } catch (error) {
      // A stack overflow while reading the answer (JSON nested thousands deep) comes from whichever realm parsed it, so test the name.
      const tooDeep = (error as Error)?.name === 'RangeError'
      const failure = this.failureOf('tools/call', error, controller, ids, askedAt)
      const noAnswer = failure.outcome === 'error' || failure.outcome === 'result' ? undefined : failure.outcome
      // Refused by Parallax before it was sent (a tool the spec has a client exclude): said as it is.
      const refused = error instanceof CommandError
      const message = tooDeep
        ? `the answer could not be read: ${errorMessage(error)} (nested too deeply?)`
        : noAnswer && !refused
          ? noAnswerText(failure)
          : errorMessage(error)
      const code = failure.outcome === 'error' ? failure.error.code : undefined
      this.host.say(mcpErrorMessage(message, now(), { turn, code, requestId: ids.requestId, noAnswer }))
      return { turn, answer: failure, error: tooDeep || (noAnswer && !refused) ? new Error(message) : error }
    } finally {
      this.untrack(ids.requestId)
    }
  }

  /** The request just handed to the transport: cancellable by its id, its answer's frame noted. The SDK's progress token is its id. */
  private track(controller: AbortController, progress: boolean): RequestIds {
    const requestId = this.lastRequestId
    if (requestId === undefined) return {}
    this.cancellable.set(requestId, controller)
    this.answeredBy.set(requestId, undefined)
    return progress ? { requestId, progressToken: requestId } : { requestId }
  }

  /** A request just tracked, as its message says it went out: its ids and the timeout `requestOptions` gave it. */
  private sent(ids: RequestIds): SentRequest {
    return ids.requestId === undefined ? ids : { ...ids, timeoutMs: this.host.timeoutMs() }
  }

  /** The frame that holds a request's answer whole, when what Parallax shows of it is cut. */
  private cutInFrame(requestId: string | number | undefined): number | undefined {
    const answer = requestId === undefined ? undefined : this.answeredBy.get(requestId)
    return answer?.cut ? answer.seq : undefined
  }

  private untrack(requestId: string | number | undefined): void {
    if (requestId === undefined) return
    this.cancellable.delete(requestId)
    this.answeredBy.delete(requestId)
  }

  /**
   * Why a request has no result: the server's JSON-RPC error (it answered), or no answer at all — the user
   * cancelled it, it timed out, or the connection was lost before the answer came.
   */
  private failureOf(method: string, error: unknown, controller: AbortController, ids: RequestIds, askedAt: number): RequestAnswer {
    const base = { method, ...ids, durationMs: now() - askedAt }
    const answered = ids.requestId !== undefined && this.answeredBy.get(ids.requestId) !== undefined
    if (controller.signal.aborted && !answered)
      return { ...base, outcome: 'cancelled', reason: `${String(controller.signal.reason)} (notifications/cancelled sent)` }
    if (error instanceof McpError && answered)
      return {
        ...base,
        outcome: 'error',
        error: {
          code: error.code,
          message: jsonRpcErrorWords(error.message, error.code),
          ...(error.data !== undefined && { data: error.data }),
        },
      }
    if (answered)
      // The server answered, but not with anything the SDK could read as this method's result.
      return {
        ...base,
        outcome: 'error',
        error: { code: ErrorCode.InternalError, message: `the answer could not be read: ${errorMessage(error)}` },
      }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      const timeoutMs = this.host.timeoutMs()
      return {
        ...base,
        outcome: 'timeout',
        reason: `${ids.progressToken === undefined ? 'no answer' : 'no answer or progress'} within ${timeoutMs} ms${ids.progressToken === undefined ? '' : ' (each progress notification restarted the timeout)'}; notifications/cancelled sent`,
      }
    }
    return { ...base, outcome: 'lost', reason: errorMessage(error) }
  }
}

/** Why no answer came, said as such: "no answer: cancelled by the user …", "no answer within 30000 ms …". */
function noAnswerText(answer: RequestAnswer): string {
  if (answer.outcome === 'result' || answer.outcome === 'error') return ''
  return answer.outcome === 'timeout' ? answer.reason : `no answer: ${answer.reason}`
}
