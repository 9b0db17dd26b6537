import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  AGENT_CARD_PATH,
  A2A_PROTOCOL_VERSION,
  Role,
  StreamResponse,
  TaskState,
  type AgentCard,
  type Message,
  type Part,
  type Task,
} from '@a2a-js/sdk'
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3'
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type DefaultPushNotificationSender,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server'
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express'
import express from 'express'
import { PARALLAX_VERSION } from '../version'
import { ADCP_VERSION, MediaSeller, type MediaBuy, type SellerLedger } from './mediaSales'
import { conversationalBuy, isTask, runTask, TASKS, type TaskName } from './sellerTasks'

/** How an A2A card declares AdCP: the extension, with the release and the protocols the agent supports. */
export const ADCP_EXTENSION_URI = 'https://adcontextprotocol.org/extensions/adcp'

/** A turn in words ("buy prod_mobile_run 2000") needs these before it books; the agent asks for each (INPUT_REQUIRED). */
const BUY_FIELDS = ['product_id', 'budget', 'brand'] as const
type Input = Record<string, unknown>

const QUESTIONS: Record<string, string> = {
  product_id: 'Which product should I book? Send a product_id, e.g. prod_mobile_run.',
  budget: 'What budget, in USD?',
  brand: 'Which brand is the buy for? Send its domain, e.g. acmeoutdoor.example.',
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
})
export const dataPart = (data: unknown): Part => ({
  content: { $case: 'data', value: data },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
})

function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    role: Role.ROLE_AGENT,
    parts,
    taskId,
    contextId,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  }
}

/** What a turn asks: an AdCP task with its input, or a buy in words (`words`), or nothing the agent knows. */
interface Turn {
  task?: TaskName
  words?: boolean
  input: Input
  text: string
}

/**
 * Reads a turn: a data part `{"skill", "input"}` (AdCP's form; `parameters` is the older name of `input`),
 * or text such as "buy prod_mobile_run 2000", "report mb_0001", "formats", or a brief.
 */
function readTurn(message: Message): Turn {
  let text = ''
  for (const part of message.parts) {
    if (part.content?.$case === 'data' && part.content.value && typeof part.content.value === 'object') {
      const data = part.content.value as { skill?: string; input?: Input; parameters?: Input }
      if (data.skill && isTask(data.skill)) return { task: data.skill, input: { ...(data.input ?? data.parameters ?? {}) }, text }
      return { input: { ...(data as Input) }, text }
    }
    if (part.content?.$case === 'text') text += part.content.value
  }
  const words = text.trim().split(/\s+/)
  const verb = words[0]?.toLowerCase()
  if (verb === 'formats') return { task: 'list_creative_formats', input: {}, text }
  if (verb === 'buys') return { task: 'get_media_buys', input: {}, text }
  if (verb === 'report') return { task: 'get_media_buy_delivery', input: words[1] ? { media_buy_ids: [words[1]] } : {}, text }
  if (verb === 'buy') {
    const [product_id, budget, brand] = words.slice(1)
    return { words: true, input: clean({ product_id, budget: budget && Number(budget), brand }), text }
  }
  if (verb === 'search') return { task: 'get_products', input: { buying_mode: 'brief', brief: words.slice(1).join(' ') }, text }
  return { input: {}, text }
}

function clean(input: Input): Input {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== '' && !Number.isNaN(v)))
}

/** A free-text answer to the question we asked fills the one field we asked for. */
function answer(field: string, text: string): unknown {
  const value = text.trim()
  return field === 'budget' ? Number(value.replace(/[$,]/g, '')) : value
}

/**
 * The deliberate, documented difference between the demo's two faces: over A2A each media buy's delivery
 * also names its pricing model (a field AdCP allows and MCP's face leaves out). A first replay or Compare
 * of the demo recording shows it on get_media_buy_delivery.
 */
function a2aDifference(task: TaskName, data: Input): Input {
  if (task !== 'get_media_buy_delivery' || !Array.isArray(data.media_buy_deliveries)) return data
  return { ...data, media_buy_deliveries: data.media_buy_deliveries.map((d: Input) => ({ ...d, pricing_model: 'cpm' })) }
}

/**
 * The media-sales agent over A2A: the seller's AdCP tasks as skills (a data part `{"skill", "input"}` runs
 * one, checked and answered as the MCP tools are), and a buy in words that asks a follow-up question
 * (INPUT_REQUIRED) for what it is missing and completes on the answer; streams status and artifacts.
 * Each context has its own book of buys, numbered from mb_0001 as each MCP session's are (so a replay gets
 * the same ids); a buy made in another context is still found by its id, the newest first, and an
 * idempotency key holds across contexts (AdCP's client sends each task in a context of its own).
 */
export class MediaSalesExecutor implements AgentExecutor {
  private readonly books = new Map<string, MediaSeller>()
  private readonly ledger: SellerLedger = { keys: new Map(), elsewhere: (id) => this.elsewhere(id) }
  /** What a task parked in INPUT_REQUIRED is waiting for. */
  private readonly pending = new Map<string, { input: Input; asked: string; contextId: string }>()

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context
    const publishStatus = (state: TaskState, message?: Message) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, message, timestamp: new Date().toISOString() },
          metadata: undefined,
        }),
      )
    const task: Task = context.task ?? {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [context.userMessage],
      metadata: undefined,
    }
    bus.publish(AgentEvent.task(task))

    const turn = readTurn(context.userMessage)
    const waiting = turn.task ? undefined : this.pending.get(taskId)
    let taskName = turn.task
    let input: Input = turn.input
    if (waiting || turn.words) {
      // A buy in words: gather what it names and what it was asked, then ask for the next missing thing.
      input = { ...(waiting?.input ?? {}), ...turn.input }
      if (waiting && turn.text && !(waiting.asked in turn.input)) input[waiting.asked] = answer(waiting.asked, turn.text)
      const missing = BUY_FIELDS.find((field) => input[field] === undefined || input[field] === '')
      if (missing) {
        this.pending.set(taskId, { input, asked: missing, contextId })
        publishStatus(
          TaskState.TASK_STATE_INPUT_REQUIRED,
          agentMessage(taskId, contextId, [textPart(QUESTIONS[missing]), dataPart({ missing: [missing], skill: 'create_media_buy' })]),
        )
        return
      }
      taskName = 'create_media_buy'
      input = conversationalBuy({ product_id: String(input.product_id), budget: Number(input.budget), brand: String(input.brand) })
    } else if (!taskName) {
      if (!turn.text.trim()) {
        publishStatus(
          TaskState.TASK_STATE_FAILED,
          agentMessage(taskId, contextId, [textPart('Send text, or a data part {"skill": …, "input": {…}}.')]),
        )
        return
      }
      taskName = 'get_products'
      input = { buying_mode: 'brief', brief: turn.text.trim() }
    }
    this.pending.delete(taskId)
    publishStatus(TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, [textPart(`Running ${taskName}…`)]))

    let book = this.books.get(contextId)
    if (!book) this.books.set(contextId, (book = new MediaSeller(this.ledger)))
    const outcome = runTask(taskName, input, book)
    // The answer is an artifact either way: AdCP's response, or its error arm (`errors[]`) on a failed task.
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: randomUUID(),
          name: outcome.ok ? taskName : 'error',
          description: TASKS[taskName].description,
          parts: [dataPart(outcome.ok ? a2aDifference(taskName, outcome.data) : outcome.data)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    )
    publishStatus(
      outcome.ok ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_FAILED,
      agentMessage(taskId, contextId, [textPart(outcome.summary)]),
    )
  }

  private elsewhere(id: string): MediaBuy | undefined {
    for (const book of [...this.books.values()].reverse()) {
      const buy = book.own(id)
      if (buy) return buy
    }
    return undefined
  }

  // A task parked in INPUT_REQUIRED has no running execute() to notice a cancel: publish it here.
  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const contextId = this.pending.get(taskId)?.contextId ?? ''
    this.pending.delete(taskId)
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    )
  }
}

/** The card: JSON-RPC and HTTP+JSON at `baseUrl` (v1.0, and v0.3 through the SDK's compatibility layer), and gRPC v1.0 at `grpcAddress` (host:port) when given. */
export function mediaSalesCard(baseUrl: string, grpcAddress?: string): AgentCard {
  return {
    name: 'Parallax demo media-sales agent',
    description:
      'An AdCP seller (media buy): finds products for a brief, lists creative formats, books media buys and reports their delivery; asks for what a buy in words is missing.',
    version: PARALLAX_VERSION,
    provider: { organization: 'Parallax demo', url: baseUrl },
    supportedInterfaces: [
      ...duplicateInterfacesForLegacy(
        [
          { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
          { url: `${baseUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
        ],
        ['JSONRPC', 'HTTP+JSON'],
      ),
      ...(grpcAddress ? [{ url: grpcAddress, protocolBinding: 'GRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }] : []),
    ],
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [
        {
          uri: ADCP_EXTENSION_URI,
          description: `AdCP ${ADCP_VERSION}: the media buy protocol`,
          required: false,
          params: { adcp_version: ADCP_VERSION, protocols_supported: ['media_buy'] },
        },
      ],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    // AdCP names a skill by its task (buyers look skills up by name).
    skills: Object.entries(TASKS).map(([task, { description }]) => ({
      id: task,
      name: task,
      description,
      tags: ['adcp', 'media-buy'],
      examples:
        task === 'create_media_buy'
          ? ['buy prod_mobile_run 2000 acmeoutdoor.example']
          : task === 'get_products'
            ? ['search sports video']
            : [],
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  }
}

/**
 * The demo's push notifications: each task event POSTed (as the SDK's sender does: the v1.0 StreamResponse
 * JSON, the config's token in `X-A2A-Notification-Token`) to every webhook configured for its task. Quiet
 * where the SDK's logs each push: the demo runs inside Parallax, whose stdout is the CLI's report.
 */
function quietPushSender(store: InMemoryPushNotificationStore): Pick<DefaultPushNotificationSender, 'send'> {
  return {
    async send(event, context) {
      const payload = event.payload
      const taskId = payload?.$case === 'task' ? payload.value.id : payload?.value.taskId
      if (!taskId) return
      const body = JSON.stringify(StreamResponse.toJSON(event))
      for (const config of await store.load(taskId, context))
        await fetch(config.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/a2a+json', ...(config.token && { 'X-A2A-Notification-Token': config.token }) },
          body,
          signal: AbortSignal.timeout(5_000),
        }).catch(() => {}) // a webhook that is gone is the client's business
    },
  }
}

export interface RunningAgent {
  url: string
  close(): Promise<void>
}

/**
 * Starts the demo agent on 127.0.0.1 (port 0 picks a free one), speaking A2A v1.0 and v0.3 over JSON-RPC
 * and HTTP+JSON, and v1.0 over gRPC on a port of its own (the card says which).
 */
export async function startMediaSalesAgent(port = 0): Promise<RunningAgent> {
  // Listen first: the card's interface URLs need the ports.
  const app = express()
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s)).once('error', reject)
  })
  // gRPC is loaded when the agent starts, not with everything that imports this module.
  const [{ A2AService, grpcService }, { Server: GrpcServer, ServerCredentials }] = await Promise.all([
    import('@a2a-js/sdk/server/grpc'),
    import('@grpc/grpc-js'),
  ])
  const grpc = new GrpcServer()
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpc.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  )
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const pushes = new InMemoryPushNotificationStore()
  const handler = new DefaultRequestHandler(
    mediaSalesCard(url, `127.0.0.1:${grpcPort}`),
    new InMemoryTaskStore(),
    new MediaSalesExecutor(),
    undefined,
    pushes,
    quietPushSender(pushes),
  )
  const legacyCompat = { enabled: true }
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }))
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }))
  app.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }))
  grpc.addService(A2AService, grpcService({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        grpc.forceShutdown()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
