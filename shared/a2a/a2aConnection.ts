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
import type { A2aInterface, ClientProfile, ConnectionOptions, ConversationContext, ConversationMessage, SavedTarget, TargetSpec, Turn } from '../contract'
import { conversationFromTask } from './taskHistory'
import type { EventLog } from '../runtime/eventLog'
import { now } from '../runtime/clock'
import { ProbeError, SupervisedConnection, type ProbeOutcome } from '../runtime/supervisedConnection'
import { errorMessage } from '../runtime/errors'
import { cardUrlFor, checkCard, detectGeneration, listInterfaces } from './agentCard'
import { createTappedFetch, type WireError } from './httpTap'
import { chooseInterface, type InterfaceChoice } from './interfaceChoice'
import { AWAITING_STATES, isTask, partsData, partsText, plainMessage, plainTask, stateName } from './plain'

type A2aSpec = Extract<TargetSpec, { kind: 'a2a' }>

export interface A2aTurnResult {
  turn: number
  request: { parts: unknown[]; taskId?: string; contextId?: string }
  /** The final task or message, as plain JSON. */
  response: unknown
  state: string
  taskId?: string
  contextId?: string
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
 * conversation that threads taskId/contextId across turns, and keepalive by conditional card re-fetch.
 */
export class A2aConnection extends SupervisedConnection {
  private client: Client | undefined
  private readonly fetcher: ReturnType<typeof createTappedFetch>
  private readonly cardUrl: string
  private readonly configuredOrigin: string
  /** The configured origin, and any other the user allowed this target to talk to. */
  private readonly allowedOrigins = new Set<string>()
  private etag: string | undefined
  private cardText: string | undefined
  private streaming = false
  private abort = new AbortController()
  /** The conversation's thread: the context it is in, and the last task and its state. */
  private contextId: string | undefined
  private lastTask: { id: string; contextId: string; state: string } | undefined
  private turn = 0
  /** When each message and artifact was first seen, for history timestamps. */
  private readonly observed = new Map<string, number>()
  private readonly emitted = new Set<string>()

  constructor(
    id: string,
    target: SavedTarget,
    log: EventLog,
    options: ConnectionOptions,
    private readonly profile?: ClientProfile,
    private readonly origins: OriginGate = CONFIGURED_ORIGIN_ONLY,
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
    this.fetcher = createTappedFetch({ onFrame: (frame) => this.emit(frame), transport: () => this.transport ?? 'jsonrpc', headers, spill: this.spill })
  }

  private get spec(): A2aSpec {
    return this.target.spec as A2aSpec
  }

  protected async establish(): Promise<void> {
    const started = now()
    this.abort = new AbortController()
    const raw = await this.fetchCard()
    const { generation, reason } = detectGeneration(raw)
    const warnings = checkCard(raw, generation, this.cardUrl)
    const interfaces = listInterfaces(raw, generation)
    const resolver = new DefaultAgentCardResolver({ fetchImpl: this.fetcher, legacyCompat })
    const handshake = { type: 'handshake', protocol: 'a2a', agentCard: raw, cardUrl: this.cardUrl, generation, generationReason: reason, interfaces } as const
    let card: AgentCard
    let choice: InterfaceChoice
    try {
      card = resolver.normalizeAgentCard(raw)
      const offered = new Set(card.supportedInterfaces.map((i) => (URL.canParse(i.url) ? new URL(i.url).origin : '')))
      for (const origin of offered) if (origin && (await this.origins.isAllowed(origin))) this.allowedOrigins.add(origin)
      choice = chooseInterface(card.supportedInterfaces, this.spec.binding, (origin) => this.allowedOrigins.has(origin))
    } catch (error) {
      // Still show the card and everything wrong with it: that is what the user came to see.
      const why = `no usable interface: ${errorMessage(error)}`
      this.emit({ ...handshake, transport: this.transport ?? 'jsonrpc', protocolVersion: '', interfaceReason: why, capabilities: NO_CAPABILITIES, skills: [], warnings: [...warnings, why], durationMs: now() - started })
      throw new Error(`the agent card cannot be used: ${errorMessage(error)}`)
    }
    const { chosen, foreignOrigin } = choice
    if (foreignOrigin) {
      // Nothing is sent to an origin the user did not configure (least of all their headers) until they allow it.
      const why = `the card sends Parallax to ${foreignOrigin}, not ${this.configuredOrigin} where you configured this agent; nothing is sent there until you allow it`
      this.emit({ ...handshake, transport: this.transport ?? 'jsonrpc', protocolVersion: chosen.protocolVersion, chosenInterface: plainInterface(chosen), interfaceReason: `${choice.reason}; ${why}`, capabilities: NO_CAPABILITIES, skills: [], warnings: [...warnings, why], durationMs: now() - started })
      await this.origins.require(foreignOrigin, `${chosen.protocolBinding} ${chosen.url}`)
      this.allowedOrigins.add(foreignOrigin)
    }
    try {
      // The SDK is handed a card with just the chosen interface, so what it uses is what the card view names.
      this.client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          transports: [new JsonRpcTransportFactory({ fetchImpl: this.fetcher, legacyCompat }), new RestTransportFactory({ fetchImpl: this.fetcher, legacyCompat })],
          cardResolver: resolver,
        }),
      ).createFromAgentCard({ ...card, supportedInterfaces: [chosen] })
    } catch (error) {
      const why = `no usable interface: ${errorMessage(error)}`
      this.emit({ ...handshake, transport: this.transport ?? 'jsonrpc', protocolVersion: '', interfaceReason: why, capabilities: NO_CAPABILITIES, skills: [], warnings: [...warnings, why], durationMs: now() - started })
      throw new Error(`the agent card cannot be used: ${errorMessage(error)}`)
    }
    const binding = this.client.transport.protocolName
    const version = this.client.protocolVersion
    this.transport = binding === 'HTTP+JSON' ? 'rest' : 'jsonrpc'
    const capabilities = card.capabilities
    this.streaming = capabilities?.streaming === true
    this.emit({
      ...handshake,
      transport: this.transport,
      protocolVersion: version,
      chosenInterface: plainInterface(chosen),
      interfaceReason: choice.reason,
      capabilities: {
        streaming: this.streaming,
        pushNotifications: capabilities?.pushNotifications === true,
        extendedAgentCard: capabilities?.extendedAgentCard === true,
        extensions: (capabilities?.extensions ?? []).map((e) => ({ uri: e.uri, required: e.required, ...(e.description && { description: e.description }) })),
      },
      skills: card.skills.map((s) => ({ id: s.id, name: s.name, description: s.description, tags: s.tags, examples: s.examples })),
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
    this.emit({
      type: 'discovery',
      method: 'extended-agent-card',
      status: 'skipped',
      trigger: 'initial',
      reason: capabilities?.extendedAgentCard
        ? 'the agent offers an extended card to authenticated clients; Parallax does not fetch it on connect'
        : 'the agent did not advertise capabilities.extendedAgentCard',
    })
    for (const warning of warnings) this.logLine('warn', `agent card: ${warning}`)
  }

  /** GETs the card (always announcing v1.0, so a compatible server answers in v1.0 shape). */
  private async fetchCard(): Promise<Record<string, unknown>> {
    const response = await this.fetcher(this.cardUrl, { headers: { 'A2A-Version': '1.0', Accept: 'application/json' }, signal: AbortSignal.timeout(this.options.connectTimeoutMs) })
    if (!response.ok) throw new Error(`the agent card at ${this.cardUrl} answered HTTP ${response.status}`)
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
      response = await this.fetcher(this.cardUrl, {
        headers: { 'A2A-Version': '1.0', Accept: 'application/json', ...(this.etag && { 'If-None-Match': this.etag, 'Cache-Control': 'max-age=0' }) },
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
    this.client = undefined
  }

  /** Forgets the thread: the next turn starts a new context. */
  newContext(): void {
    this.contextId = undefined
    this.lastTask = undefined
  }

  /**
   * Sends one turn. It continues the last task while that task awaits input, otherwise stays in the
   * same context; `stream` uses SendStreamingMessage when the agent advertises streaming.
   */
  async send(turn: Turn, options: { stream?: boolean; newContext?: boolean } = {}): Promise<A2aTurnResult> {
    const client = this.requireClient()
    if (options.newContext) this.newContext()
    if ('tool' in turn) throw new A2aCallError('an A2A turn is text or a JSON data object, not an MCP tool call')
    const continuing = this.lastTask && AWAITING_STATES.has(this.lastTask.state) ? this.lastTask : undefined
    const parts: Part[] = 'text' in turn ? [textPart(turn.text)] : [dataPart(turn.data)]
    const message: Message = {
      messageId: randomUUID(),
      role: Role.ROLE_USER,
      parts,
      taskId: continuing?.id ?? '',
      contextId: continuing?.contextId ?? this.contextId ?? '',
      metadata: this.profile && Object.keys(this.profile.a2a.metadata).length ? this.profile.a2a.metadata : undefined,
      extensions: this.profile?.a2a.extensions ?? [],
      referenceTaskIds: [],
    }
    const number = ++this.turn
    const sentAt = now()
    this.observed.set(message.messageId, sentAt)
    this.say({
      role: 'user',
      content: partsText(parts),
      timestamp: sentAt,
      metadata: { kind: 'message', timestampSource: 'observed', messageId: message.messageId, taskId: message.taskId || undefined, contextId: message.contextId || undefined, turn: number, data: partsData(parts) },
    })
    const request = { tenant: '', message, configuration: undefined, metadata: undefined }
    const streamed = options.stream === true && this.streaming
    if (options.stream && !this.streaming) this.logLine('info', 'the agent does not advertise streaming; sent a blocking SendMessage instead')
    let final: Message | Task | undefined
    try {
      if (streamed) {
        final = await this.follow((signal) => client.sendMessageStream(request, { signal }), number)
      } else {
        final = await this.bounded((signal) => client.sendMessage(request, { signal }))
        this.observeResult(final, number)
      }
    } catch (error) {
      throw this.failTurn(error, number)
    }
    const task = final && isTask(final) ? final : undefined
    return {
      turn: number,
      request: { parts: parts.map((p) => (p.content?.$case === 'text' ? { text: p.content.value } : { data: (p.content as { value: unknown }).value })), ...(message.taskId && { taskId: message.taskId }), ...(message.contextId && { contextId: message.contextId }) },
      response: final ? (task ? plainTask(task) : plainMessage(final as Message)) : null,
      state: task ? stateName(task.status?.state) : final ? 'message' : 'unknown',
      taskId: task?.id,
      contextId: task?.contextId ?? (final && !isTask(final) ? final.contextId : undefined) ?? this.contextId,
      streamed,
    }
  }

  /** GetTask, with its history turned into the conversation model. */
  async getTask(taskId: string, historyLength?: number): Promise<{ task: unknown; conversation: ConversationContext }> {
    const client = this.requireClient()
    try {
      const task = await this.bounded((signal) => client.getTask({ tenant: '', id: taskId, historyLength }, { signal }))
      return { task: plainTask(task), conversation: conversationFromTask(task, this.observed, now()) }
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  async listTasks(contextId?: string): Promise<unknown[]> {
    const client = this.requireClient()
    try {
      const query = { tenant: '', contextId: contextId ?? this.contextId ?? '', status: 0, pageToken: '', statusTimestampAfter: undefined }
      const result = await this.bounded((signal) => client.listTasks(query, { signal }))
      return result.tasks.map(plainTask)
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  async cancelTask(taskId: string): Promise<unknown> {
    const client = this.requireClient()
    try {
      const task = await this.bounded((signal) => client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal }))
      this.observeResult(task, this.turn)
      return plainTask(task)
    } catch (error) {
      throw this.failTurn(error)
    }
  }

  /** SubscribeToTask: follows a running task's stream (it starts with a full snapshot of the task). */
  async resubscribe(taskId: string): Promise<unknown> {
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
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms (request timeout)`, 'TimeoutError')), timeoutMs)
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
        result = this.fold(event, result, turn)
      }
    } catch (error) {
      throw idle.signal.aborted ? idle.signal.reason : error
    } finally {
      clearTimeout(timer)
    }
    return result
  }

  /** One stream event: shown in the timeline, and folded into the task it describes. */
  private fold(event: StreamResponse, result: Task | Message | undefined, turn: number): Task | Message | undefined {
    const payload = event.payload
    switch (payload?.$case) {
      case 'task':
        result = { ...payload.value, artifacts: [...payload.value.artifacts] }
        this.observeResult(payload.value, turn)
        break
      case 'message':
        result = payload.value
        this.observeResult(payload.value, turn)
        break
      case 'statusUpdate': {
        const { taskId, contextId, status } = payload.value
        if (result && isTask(result) && result.id === taskId) result.status = status
        this.track(taskId, contextId, stateName(status?.state))
        this.sayStatus(taskId, contextId, stateName(status?.state), status?.message, status?.timestamp, turn)
        break
      }
      case 'artifactUpdate': {
        const { taskId, contextId, artifact, append } = payload.value
        if (!artifact) break
        if (result && isTask(result) && result.id === taskId) {
          const existing = result.artifacts.find((a) => a.artifactId === artifact.artifactId)
          if (existing && append) existing.parts = [...existing.parts, ...artifact.parts]
          else if (existing) Object.assign(existing, artifact)
          else result.artifacts.push(artifact)
        }
        this.sayArtifact(taskId, contextId, artifact, turn)
        break
      }
    }
    return result
  }

  private observeResult(result: Message | Task, turn: number): void {
    if (!isTask(result)) {
      if (result.contextId) this.contextId = result.contextId
      this.sayMessage(result, turn)
      return
    }
    const state = stateName(result.status?.state)
    this.track(result.id, result.contextId, state)
    for (const message of result.history) if (message.role === Role.ROLE_AGENT) this.sayMessage(message, turn)
    for (const artifact of result.artifacts) this.sayArtifact(result.id, result.contextId, artifact, turn)
    this.sayStatus(result.id, result.contextId, state, result.status?.message, result.status?.timestamp, turn)
  }

  private track(taskId: string, contextId: string, state: string): void {
    this.contextId = contextId || this.contextId
    this.lastTask = { id: taskId, contextId, state }
  }

  private sayMessage(message: Message, turn: number): void {
    if (!this.once(`m:${message.messageId}`)) return
    const at = this.seen(message.messageId)
    this.say({
      role: 'agent',
      content: partsText(message.parts),
      timestamp: at,
      metadata: { kind: 'message', timestampSource: 'observed', messageId: message.messageId, taskId: message.taskId || undefined, contextId: message.contextId || undefined, turn, data: partsData(message.parts) },
    })
  }

  private sayStatus(taskId: string, contextId: string, state: string, message: Message | undefined, reported: string | undefined, turn: number): void {
    if (!this.once(`s:${taskId}:${state}:${message?.messageId ?? reported ?? ''}`)) return
    if (message) this.once(`m:${message.messageId}`)
    this.say({
      role: 'agent',
      content: message ? partsText(message.parts) : '',
      timestamp: message ? this.seen(message.messageId) : now(),
      metadata: {
        kind: 'status',
        timestampSource: 'observed',
        state,
        taskId,
        contextId,
        turn,
        ...(message && { messageId: message.messageId, data: partsData(message.parts) }),
        ...(reported && { reportedAt: reported }),
      },
    })
  }

  private sayArtifact(taskId: string, contextId: string, artifact: { artifactId: string; name: string; parts: Part[] }, turn: number): void {
    if (!this.once(`a:${taskId}:${artifact.artifactId}`)) return
    this.say({
      role: 'agent',
      content: partsText(artifact.parts),
      timestamp: this.seen(artifact.artifactId),
      metadata: { kind: 'artifact', timestampSource: 'observed', taskId, contextId, turn, artifactId: artifact.artifactId, name: artifact.name, data: partsData(artifact.parts) },
    })
  }

  private seen(key: string): number {
    let at = this.observed.get(key)
    if (at === undefined) this.observed.set(key, (at = now()))
    return at
  }

  private once(key: string): boolean {
    if (this.emitted.has(key)) return false
    this.emitted.add(key)
    return true
  }

  private say(message: ConversationMessage): void {
    this.emit({ type: 'conversation', message })
  }

  /** Turns any failure into an A2aCallError with the agent's code and reason, and shows it in the timeline. */
  private failTurn(error: unknown, turn?: number): A2aCallError {
    const wire: WireError | undefined = this.fetcher.lastError()
    const reason = (error as { reason?: string }).reason ?? wire?.reason
    const code = wire?.code
    const detail = [code !== undefined ? `code ${code}` : undefined, reason, wire?.status && wire.status >= 400 ? `HTTP ${wire.status}` : undefined].filter(Boolean).join(', ')
    const failure = new A2aCallError(`${errorMessage(error)}${detail ? ` (${detail})` : ''}`, code, reason, wire?.status)
    this.say({ role: 'agent', content: failure.message, timestamp: now(), metadata: { kind: 'error', timestampSource: 'observed', turn, ...(code !== undefined && { code }), ...(reason && { reason }) } })
    return failure
  }
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }
}

function dataPart(data: unknown): Part {
  return { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' }
}

function plainInterface(i: AgentInterface): A2aInterface {
  return { url: i.url, protocolBinding: i.protocolBinding, protocolVersion: i.protocolVersion }
}
