import { randomUUID } from 'node:crypto'
import { Role, type AgentCard, type AgentInterface, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk'
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client'
import type {
  A2aHandshakeEvent,
  A2aInterface,
  A2aMessage,
  A2aPart,
  A2aTask,
  ClientProfile,
  ConnectionOptions,
  ConversationContext,
  ConversationMessage,
  SavedTarget,
  TargetSpec,
  TransportKind,
  Turn,
  TurnResult,
} from '../contract'
import { redactText } from '../contract'
import { conversationFromTask } from './taskHistory'
import { StreamProjection } from './streamProjection'
import type { EventLog } from '../runtime/eventLog'
import { now } from '../runtime/clock'
import {
  ProbeError,
  SupervisedConnection,
  type CallEndpoint,
  type ProbeOutcome,
  type PushConfigOperations,
  type TaskOperations,
  type TurnOptions,
} from '../runtime/supervisedConnection'
import { ConnectFailure, errorMessage, networkCause, networkFailure, networkPhrase } from '../runtime/errors'
import type { ConnectionAuth } from '../auth/connectionAuth'
import { failedAnswer } from '../runtime/httpAnswers'
import { cardOffer, cardUrlFor, checkCard, detectGeneration, listInterfaces } from './agentCard'
import { createTappedFetch, type WireError } from './httpTap'
import { readSecurity } from './securitySchemes'
import { chooseInterface, interfaceOrigin, type InterfaceChoice } from './interfaceChoice'
import { closeTransport } from './grpcEndpoint'
import { extendedCardStep } from './extendedCard'
import { PushNotifications } from './pushNotifications'
import type { PushReceiver } from './pushReceiver'
import { isTask, plainMessage, plainPart, plainTask, stateName } from './plain'

type A2aSpec = Extract<TargetSpec, { kind: 'a2a' }>

export interface A2aTurnResult extends TurnResult {
  request: { parts: A2aPart[]; taskId?: string; contextId?: string }
  /** The final task or message, as plain JSON. */
  response: A2aTask | A2aMessage | null
  streamed: boolean
}

/** A failed A2A call, with the agent's own code and reason when it gave them. */
export class A2aCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly reason?: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'A2aCallError'
  }
}

/** Whether this target may talk to an origin other than the one configured; `require` asks the user (or refuses). */
export interface OriginGate {
  isAllowed(origin: string): Promise<boolean>
  require(origin: string, via: string): Promise<void>
}

const CONFIGURED_ORIGIN_ONLY: OriginGate = {
  isAllowed: async () => false,
  require: async (origin) => {
    throw new Error(`the agent card points to ${origin}, another origin; Parallax sends nothing there`)
  },
}

const legacyCompat = { enabled: true }
const NO_CAPABILITIES = { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] }

/**
 * One A2A agent: the card (fetched, checked, generation detected), a client for the interface the SDK
 * picks (v1.0, or v0.3 through its compatibility layer), every HTTP exchange tapped as frames, a
 * conversation that threads taskId/contextId across turns (told as it arrives by a StreamProjection),
 * tasks, and keepalive by conditional card re-fetch.
 */
export class A2aConnection extends SupervisedConnection implements TaskOperations {
  private client: Client | undefined
  private readonly fetcher: ReturnType<typeof createTappedFetch>
  /** The gRPC tap, while this connection talks gRPC: its last error is the agent's own words. */
  private grpcTap: { lastError(): WireError | undefined } | undefined
  /** The headers a request to `url` carries: the user's (to allowed origins only) and the profile's extensions. */
  private readonly headersFor: (url: URL) => Record<string, string>
  /** Whether the target has headers of its own (credentials, for the extended card). */
  private readonly hasCredentials: boolean
  private readonly cardUrl: string
  private readonly configuredOrigin: string
  /** The configured origin, and any other the user allowed this target to talk to. */
  private readonly allowedOrigins = new Set<string>()
  private etag: string | undefined
  private cardText: string | undefined
  /** The card this connection was made with (a refresh says whether the agent's card still is). */
  private connectedCardText: string | undefined
  private streaming = false
  private abort = new AbortController()
  /** The conversation: its thread (context, last task), and what of it was said when. */
  private readonly conversation = new StreamProjection((message) => this.say(message))
  private turn = 0
  /** Push notifications: the configs this connection made, their webhooks, and what it expects of them. */
  private readonly push: PushNotifications

  constructor(
    id: string,
    target: SavedTarget,
    log: EventLog,
    options: ConnectionOptions,
    private readonly profile?: ClientProfile,
    private readonly origins: OriginGate = CONFIGURED_ORIGIN_ONLY,
    /** Authorization: a token for the configured origin only, obtained as the card's scheme or a challenge asks (shared/auth). */
    private readonly auth?: ConnectionAuth,
    receiver?: PushReceiver,
  ) {
    super(id, target, log, options, 'a2a')
    const spec = target.spec as A2aSpec
    this.cardUrl = cardUrlFor(spec.url)
    this.configuredOrigin = new URL(spec.url).origin
    this.allowedOrigins.add(this.configuredOrigin)
    this.transport = 'jsonrpc'
    const a2a = profile?.a2a
    // A profile's extensions are activated on every request through the A2A-Extensions header.
    const configured = { ...spec.headers, ...a2a?.headers }
    const extensions: Record<string, string> = a2a?.extensions.length ? { 'A2A-Extensions': a2a.extensions.join(', ') } : {}
    // The user's headers (credentials among them) go only to origins the user allowed.
    const headers = (url: URL) => (this.allowedOrigins.has(url.origin) ? { ...configured, ...extensions } : extensions)
    this.headersFor = headers
    this.hasCredentials = Object.keys(configured).length > 0
    this.fetcher = createTappedFetch({
      onFrame: (frame) => this.emit(frame),
      transport: () => this.transport ?? 'jsonrpc',
      headers,
      spill: this.spill,
      ...(auth && { base: auth.wrap((input, init) => fetch(input, init)) }),
    })
    this.push = new PushNotifications({
      client: () => this.requireClient(),
      bounded: (call) => this.bounded(call),
      fail: (error) => this.failTurn(error),
      frame: (frame) => this.emit(frame),
      say: (message) => this.say(message),
      log: (level, text, oddity) => this.emit({ type: 'log', source: 'engine', level, text, ...(oddity && { oddity }) }),
      fold: (event) => void this.conversation.fold(event, undefined, this.turn),
      isLive: () => this.isLive,
      receiver,
      spill: this.spill,
    })
  }

  private get spec(): A2aSpec {
    return this.target.spec as A2aSpec
  }

  protected async establish(): Promise<void> {
    const started = now()
    this.abort = new AbortController()
    const raw = await this.fetchCard()
    this.connectedCardText = this.cardText
    const { generation, reason } = detectGeneration(raw)
    const warnings = checkCard(raw, generation, this.cardUrl)
    const interfaces = listInterfaces(raw, generation)
    const security = readSecurity(raw, Object.keys({ ...this.spec.headers, ...this.profile?.a2a?.headers }))
    this.auth?.noteCard(security.authorization)
    const resolver = new DefaultAgentCardResolver({ fetchImpl: this.fetcher, legacyCompat })
    const handshake = {
      type: 'handshake',
      protocol: 'a2a',
      agentCard: raw,
      cardUrl: this.cardUrl,
      generation,
      generationReason: reason,
      interfaces,
      security: security.summary,
    } as const
    /** The handshake of a card that gives no session (yet): the card, and everything wrong with it, is what the user came to see. */
    const cardOnly = (
      why: string,
      chosen: Partial<Pick<A2aHandshakeEvent, 'protocolVersion' | 'chosenInterface' | 'interfaceReason'>> = {},
    ) =>
      this.emit({
        ...handshake,
        transport: this.transport ?? 'jsonrpc',
        protocolVersion: '',
        interfaceReason: why,
        ...chosen,
        capabilities: NO_CAPABILITIES,
        skills: [],
        warnings: [...warnings, why],
        durationMs: now() - started,
      })
    /** The card offers no interface Parallax can use: said in the handshake, and the connection fails. */
    const unusable = (error: unknown): Error => {
      cardOnly(`no usable interface: ${errorMessage(error)}`)
      return new Error(`the agent card cannot be used: ${errorMessage(error)}`, { cause: error })
    }
    let card: AgentCard
    let choice: InterfaceChoice
    try {
      card = resolver.normalizeAgentCard(raw)
      const offered = new Set(card.supportedInterfaces.map((i) => interfaceOrigin(i) ?? ''))
      for (const origin of offered) if (origin && (await this.origins.isAllowed(origin))) this.allowedOrigins.add(origin)
      choice = chooseInterface(card.supportedInterfaces, this.spec.binding, (origin) => this.allowedOrigins.has(origin))
    } catch (error) {
      throw unusable(error)
    }
    const { chosen, foreignOrigin } = choice
    this.transport = transportOf(chosen.protocolBinding)
    if (foreignOrigin) {
      // Nothing is sent to an origin the user did not configure (least of all their headers) until they allow it.
      const why = `the card sends Parallax to ${foreignOrigin}, not ${this.configuredOrigin} where you configured this agent; nothing is sent there until you allow it`
      cardOnly(why, {
        protocolVersion: chosen.protocolVersion,
        chosenInterface: plainInterface(chosen),
        interfaceReason: `${choice.reason}; ${why}`,
      })
      await this.origins.require(foreignOrigin, `${chosen.protocolBinding} ${chosen.url}`)
      this.allowedOrigins.add(foreignOrigin)
    }
    try {
      // gRPC: the SDK's channel, tapped; the user's headers go as metadata, to the origin the user allowed.
      const grpc =
        chosen.protocolBinding.toUpperCase() === 'GRPC'
          ? (await import('./grpcBinding')).grpcBinding(chosen, {
              onFrame: (frame) => this.emit(frame),
              metadata: () => this.headersFor(new URL(interfaceOrigin(chosen)!)),
              spill: this.spill,
            })
          : undefined
      this.grpcTap = grpc?.tap
      // The SDK is handed a card with just the chosen interface, so what it uses is what the card view names.
      this.client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [
            new JsonRpcTransportFactory({ fetchImpl: this.fetcher, legacyCompat }),
            new RestTransportFactory({ fetchImpl: this.fetcher, legacyCompat }),
            ...(grpc ? [grpc.factory] : []),
          ],
          cardResolver: resolver,
        }),
      ).createFromAgentCard({ ...card, supportedInterfaces: [grpc?.sdkInterface ?? chosen] })
    } catch (error) {
      throw unusable(error)
    }
    const binding = this.client.transport.protocolName
    const version = this.client.protocolVersion
    this.transport = transportOf(binding)
    const capabilities = card.capabilities
    this.streaming = capabilities?.streaming === true
    this.emit({
      ...handshake,
      transport: this.transport,
      protocolVersion: version,
      chosenInterface: plainInterface(chosen),
      interfaceReason: choice.reason,
      ...cardOffer(card),
      warnings,
      durationMs: now() - started,
    })
    this.emit({
      type: 'discovery',
      method: 'agent-card',
      status: 'called',
      trigger: 'initial',
      reason: `fetched ${this.cardUrl}`,
      count: card.skills.length,
      durationMs: now() - started,
      items: card.skills,
    })
    const extendedStarted = now()
    const origin = interfaceOrigin(chosen) ?? this.configuredOrigin
    const client = this.client
    const extended = await extendedCardStep({
      offered: capabilities?.extendedAgentCard === true,
      // The target's own headers where they go; OAuth's token goes to the configured origin over HTTP (shared/auth).
      credentialsFor:
        (this.hasCredentials && this.allowedOrigins.has(origin)) ||
        (this.spec.oauth && origin === this.configuredOrigin && this.transport !== 'grpc')
          ? origin
          : undefined,
      origin,
      publicCard: card,
      // The SDK's own way: it asks only when the card offers one, and then works from the card it got.
      fetch: () => this.bounded((signal) => client.getAgentCard({ signal })),
    })
    this.emit({
      type: 'discovery',
      method: 'extended-agent-card',
      trigger: 'initial',
      ...extended,
      ...(extended.status !== 'skipped' && { durationMs: now() - extendedStarted }),
    })
    for (const warning of warnings) this.logLine('warn', `agent card: ${warning}`)
  }

  /** GETs the card (always announcing v1.0, so a compatible server answers in v1.0 shape). */
  private async fetchCard(): Promise<Record<string, unknown>> {
    const request = { method: 'GET', url: redactText(this.cardUrl) }
    let response: Response
    try {
      response = await this.fetcher(this.cardUrl, {
        headers: { 'A2A-Version': '1.0', Accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.connectTimeoutMs),
      })
    } catch (error) {
      // "fetch failed" says nothing: name what the network said, and where.
      const network = networkFailure(error, this.cardUrl)
      if (!network) throw error
      throw new ConnectFailure(`the agent card at ${request.url}: ${networkPhrase(network)}`, { request, ...networkCause(network) })
    }
    if (!response.ok) {
      // The status, the agent's own words and its challenge, as it answered them.
      const answer = await failedAnswer(response, request)
      const { status, statusText, challenge, message, body } = answer
      throw new ConnectFailure(
        `the agent card at ${request.url} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${message ? `: ${message}` : ''}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`,
        {
          request,
          status,
          ...(statusText && { statusText }),
          ...(challenge && { challenge }),
          ...(message && { message }),
          ...(body && { body }),
        },
      )
    }
    const text = await response.text()
    let card: unknown
    try {
      card = JSON.parse(text)
    } catch {
      throw new Error(`the agent card at ${this.cardUrl} is not JSON (${text.slice(0, 80)}…)`)
    }
    if (!card || typeof card !== 'object' || Array.isArray(card)) throw new Error(`the agent card at ${this.cardUrl} is not a JSON object`)
    this.etag = response.headers.get('etag') ?? undefined
    this.cardText = text
    return card as Record<string, unknown>
  }

  /**
   * Keepalive: a conditional re-fetch of the card. 304 (or the same card) means alive and unchanged.
   * `Cache-Control: max-age=0` is explicit because fetch otherwise adds `no-cache` to any request with
   * `If-None-Match`, and servers then never answer 304.
   */
  protected async probeOnce(): Promise<ProbeOutcome> {
    let response: Response
    try {
      response = await this.fetcher.probe(this.cardUrl, {
        headers: {
          'A2A-Version': '1.0',
          Accept: 'application/json',
          ...(this.etag && { 'If-None-Match': this.etag, 'Cache-Control': 'max-age=0' }),
        },
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      })
    } catch (error) {
      throw new ProbeError('agent-card', errorMessage(error))
    }
    if (response.status === 304) return { probe: 'agent-card', note: 'not modified (ETag)' }
    if (!response.ok) throw new ProbeError('agent-card', `HTTP ${response.status}`)
    const text = await response.text()
    const changed = this.cardText !== undefined && text !== this.cardText
    this.cardText = text
    this.etag = response.headers.get('etag') ?? this.etag
    return { probe: 'agent-card', note: changed ? 'the agent card changed since the handshake; reconnect to use the new one' : undefined }
  }

  protected async teardown(): Promise<void> {
    this.abort.abort()
    closeTransport(this.client?.transport)
    this.client = undefined
  }

  /**
   * The user's "refresh": fetches the agent card again and says what it found — its skills, and whether
   * it still is the card this connection was made with (the connection keeps using that one until it
   * reconnects).
   */
  async rediscover(): Promise<void> {
    if (!this.client) return
    const started = now()
    const step = { type: 'discovery', method: 'agent-card', trigger: 'refresh' } as const
    try {
      const card = new DefaultAgentCardResolver({ fetchImpl: this.fetcher, legacyCompat }).normalizeAgentCard(await this.fetchCard())
      const changed = this.cardText !== this.connectedCardText
      const reason = `fetched ${this.cardUrl}: ${changed ? 'the card changed since this connection was made; reconnect to use the new one' : 'the same card this connection was made with'}`
      this.emit({ ...step, status: 'called', reason, count: card.skills.length, durationMs: now() - started, items: card.skills })
    } catch (error) {
      this.emit({ ...step, status: 'failed', reason: errorMessage(error), durationMs: now() - started })
    }
  }

  /** Forgets the thread: the next turn starts a new context. */
  override newContext(): void {
    this.conversation.newContext()
  }

  sendTurn(turn: Turn, options?: TurnOptions): Promise<A2aTurnResult> {
    return this.send(turn, options)
  }

  /** A skill, called the way the Calls panel calls a tool: a data part {skill, input}; its data is the first data an artifact holds. */
  callEndpoint(skill: string): CallEndpoint {
    return {
      send: async (input) => {
        const result = await this.send({ data: { skill, input } })
        const artifacts = result.response && 'artifacts' in result.response ? result.response.artifacts : []
        const data = artifacts.flatMap((a) => a.parts.map((p) => ('data' in p ? p.data : undefined))).find((d) => d !== undefined)
        return { response: result.response, data, turn: result.turn }
      },
    }
  }

  override tasks(): TaskOperations {
    return this
  }

  override pushConfigs(): PushConfigOperations {
    return this.push
  }

  override async close(): Promise<void> {
    this.push.dispose()
    await super.close()
  }

  /**
   * Sends one turn. It continues the last task while that task awaits input, otherwise stays in the
   * same context; `stream` uses SendStreamingMessage when the agent advertises streaming.
   */
  async send(turn: Turn, options: TurnOptions = {}): Promise<A2aTurnResult> {
    const client = this.requireClient()
    if (options.newContext) this.newContext()
    if ('tool' in turn) throw new A2aCallError('an A2A turn is text or a JSON data object, not an MCP tool call')
    const continuing = this.conversation.continuing
    const parts: Part[] = 'text' in turn ? [textPart(turn.text)] : [dataPart(turn.data)]
    const message: Message = {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts,
      taskId: continuing?.id ?? '',
      contextId: continuing?.contextId ?? this.conversation.contextId ?? '',
      metadata: this.profile && Object.keys(this.profile.a2a.metadata).length ? this.profile.a2a.metadata : undefined,
      extensions: this.profile?.a2a.extensions ?? [],
      referenceTaskIds: [],
    }
    const number = ++this.turn
    this.conversation.sent(message, number)
    const request = { tenant: '', message, configuration: undefined, metadata: undefined }
    const streamed = options.stream === true && this.streaming
    if (options.stream && !this.streaming)
      this.logLine('info', 'the agent does not advertise streaming; sent a blocking SendMessage instead')
    let final: Message | Task | undefined
    try {
      if (streamed) {
        final = await this.follow((signal) => client.sendMessageStream(request, { signal }), number)
      } else {
        final = await this.bounded((signal) => client.sendMessage(request, { signal }))
        this.conversation.answer(final, number)
      }
    } catch (error) {
      throw this.failTurn(error, number)
    }
    const task = final && isTask(final) ? final : undefined
    return {
      turn: number,
      request: {
        parts: parts.map(plainPart),
        ...(message.taskId && { taskId: message.taskId }),
        ...(message.contextId && { contextId: message.contextId }),
      },
      response: final ? (task ? plainTask(task) : plainMessage(final as Message)) : null,
      state: task ? stateName(task.status?.state) : final ? 'message' : 'unknown',
      taskId: task?.id,
      contextId: task?.contextId ?? (final && !isTask(final) ? final.contextId : undefined) ?? this.conversation.contextId,
      streamed,
    }
  }

  /** GetTask, with its history turned into the conversation model. */
  async getTask(taskId: string, historyLength?: number): Promise<{ task: A2aTask; conversation: ConversationContext }> {
    const client = this.requireClient()
    try {
      const task = await this.bounded((signal) => client.getTask({ tenant: '', id: taskId, historyLength }, { signal }))
      return { task: plainTask(task), conversation: conversationFromTask(task, this.conversation.observed, now()) }
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  async listTasks(contextId?: string): Promise<A2aTask[]> {
    const client = this.requireClient()
    try {
      const query = {
        tenant: '',
        contextId: contextId ?? this.conversation.contextId ?? '',
        status: 0,
        pageToken: '',
        statusTimestampAfter: undefined,
        includeArtifacts: true, // the list says how many artifacts each task has; ListTasks leaves them out by default
      }
      const result = await this.bounded((signal) => client.listTasks(query, { signal }))
      return result.tasks.map(plainTask)
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  async cancelTask(taskId: string): Promise<A2aTask> {
    const client = this.requireClient()
    try {
      const task = await this.bounded((signal) => client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal }))
      this.conversation.answer(task, this.turn)
      return plainTask(task)
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  /** SubscribeToTask: follows a running task's stream (it starts with a full snapshot of the task). */
  async resubscribe(taskId: string): Promise<A2aTask | A2aMessage | null> {
    const client = this.requireClient()
    let final: Message | Task | undefined
    try {
      final = await this.follow((signal) => client.resubscribeTask({ tenant: '', id: taskId }, { signal }), this.turn)
    } catch (error) {
      throw this.failTurn(error)
    }
    return final && isTask(final) ? plainTask(final) : final ? plainMessage(final as Message) : null
  }

  /**
   * A single call: cancelled with the connection, or after the request timeout. (One controller and one
   * timer per call: AbortSignal.any/timeout cost more than the rest of the engine's work on a call.)
   */
  private async bounded<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    const connection = this.abort.signal
    const cancel = () => controller.abort(connection.reason)
    const timeoutMs = this.options.requestTimeoutMs
    const timer = setTimeout(
      () => controller.abort(new DOMException(`no answer within ${timeoutMs} ms (request timeout)`, 'TimeoutError')),
      timeoutMs,
    )
    if (connection.aborted) cancel()
    else connection.addEventListener('abort', cancel, { once: true })
    try {
      return await call(controller.signal)
    } finally {
      clearTimeout(timer)
      connection.removeEventListener('abort', cancel)
    }
  }

  private requireClient(): Client {
    if (!this.client || !this.isLive) throw new A2aCallError(`not connected (${this.state})`)
    return this.client
  }

  /**
   * Reads a stream to its end, showing each event as it comes, and folds the events into the task they
   * describe (status replaced, artifacts added or appended), which it returns.
   */
  private async follow(open: (signal: AbortSignal) => AsyncGenerator<StreamResponse>, turn: number): Promise<Task | Message | undefined> {
    // A stream may run for long, but not silently: each event restarts the request timeout.
    const idle = new AbortController()
    const timeoutMs = this.options.requestTimeoutMs
    let timer = setTimeout(() => idle.abort(new Error(`no stream event for ${timeoutMs} ms`)), timeoutMs)
    const stream = open(AbortSignal.any([this.abort.signal, idle.signal]))
    let result: Task | Message | undefined
    try {
      for await (const event of stream) {
        clearTimeout(timer)
        timer = setTimeout(() => idle.abort(new Error(`no stream event for ${timeoutMs} ms`)), timeoutMs)
        result = this.conversation.fold(event, result, turn)
      }
    } catch (error) {
      throw idle.signal.aborted ? idle.signal.reason : error
    } finally {
      clearTimeout(timer)
    }
    return result
  }

  private say(message: ConversationMessage): void {
    this.emit({ type: 'conversation', message })
    this.push.observed(message)
  }

  /** Turns any failure into an A2aCallError with the agent's code and reason, and shows it in the timeline. */
  private failTurn(error: unknown, turn?: number): A2aCallError {
    const wire: WireError | undefined = this.transport === 'grpc' ? this.grpcTap?.lastError() : this.fetcher.lastError()
    const reason = (error as { reason?: string }).reason ?? wire?.reason
    const code = wire?.code
    const detail = [
      code !== undefined ? `code ${code}` : undefined,
      reason,
      wire?.status && wire.status >= 400 ? `HTTP ${wire.status}` : undefined,
    ]
      .filter(Boolean)
      .join(', ')
    const failure = new A2aCallError(`${errorMessage(error)}${detail ? ` (${detail})` : ''}`, code, reason, wire?.status)
    this.say({
      role: 'agent',
      content: failure.message,
      timestamp: now(),
      metadata: { kind: 'error', timestampSource: 'observed', turn, ...(code !== undefined && { code }), ...(reason && { reason }) },
    })
    return failure
  }
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }
}

function dataPart(data: unknown): Part {
  return { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' }
}

/** The frames' transport label for a binding, as the SDK or a card spells it. */
function transportOf(binding: string): TransportKind {
  const name = binding.toUpperCase()
  return name === 'HTTP+JSON' ? 'rest' : name === 'GRPC' ? 'grpc' : 'jsonrpc'
}

function plainInterface(i: AgentInterface): A2aInterface {
  return { url: i.url, protocolBinding: i.protocolBinding, protocolVersion: i.protocolVersion }
}
