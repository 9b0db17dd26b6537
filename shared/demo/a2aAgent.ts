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
import { deliveryReport, listFormats, MediaBuyBook, MediaBuyError, searchProducts, type BuyingMode, type Channel } from './mediaSales'

/** The skills, with the inputs each one cannot do without (asked for with INPUT_REQUIRED). */
const SKILLS = {
  search_products: { name: 'Search products', description: 'Find advertising products that match a campaign brief.', required: ['brief'] },
  list_creative_formats: { name: 'List creative formats', description: 'The creative formats this seller accepts.', required: [] },
  create_media_buy: {
    name: 'Create media buy',
    description: 'Book a product for a budget; asks for what is missing.',
    required: ['product_id', 'budget', 'buying_mode'],
  },
  get_delivery_report: { name: 'Get delivery report', description: 'Delivery so far for a media buy.', required: ['media_buy_id'] },
} as const
type SkillId = keyof typeof SKILLS
type Input = Record<string, unknown>

const QUESTIONS: Record<string, string> = {
  brief: 'What is the campaign about? Send a short brief.',
  product_id: 'Which product should I book? Send a product_id, e.g. prod_mobile_run.',
  budget: 'What budget, in USD?',
  buying_mode: 'Which buying mode: auction or guaranteed?',
  media_buy_id: 'Which media buy? Send its media_buy_id.',
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

/** Reads a turn: a data part `{"skill", "input"}`, or text such as "buy prod_mobile_run 2000 auction". */
function readTurn(message: Message): { skill?: SkillId; input: Input; text: string } {
  let text = ''
  for (const part of message.parts) {
    if (part.content?.$case === 'data' && part.content.value && typeof part.content.value === 'object') {
      const data = part.content.value as { skill?: string; input?: Input }
      if (data.skill && data.skill in SKILLS) return { skill: data.skill as SkillId, input: { ...(data.input ?? {}) }, text }
      return { input: { ...(data as Input) }, text }
    }
    if (part.content?.$case === 'text') text += part.content.value
  }
  const words = text.trim().split(/\s+/)
  const verb = words[0]?.toLowerCase()
  if (verb === 'formats') return { skill: 'list_creative_formats', input: words[1] ? { channel: words[1] } : {}, text }
  if (verb === 'report') return { skill: 'get_delivery_report', input: words[1] ? { media_buy_id: words[1] } : {}, text }
  if (verb === 'buy') {
    const [product_id, budget, buying_mode] = words.slice(1)
    return { skill: 'create_media_buy', input: clean({ product_id, budget: budget && Number(budget), buying_mode }), text }
  }
  if (verb === 'search') return { skill: 'search_products', input: clean({ brief: words.slice(1).join(' ') }), text }
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

function runSkill(skill: SkillId, input: Input, book: MediaBuyBook): { data: Input; summary: string } {
  switch (skill) {
    case 'search_products': {
      const products = searchProducts({
        brief: String(input.brief),
        channel: input.channel as Channel | undefined,
        max_results: input.max_results as number | undefined,
      })
      return { data: { products }, summary: `Found ${products.length} product(s): ${products.map((p) => p.product_id).join(', ')}` }
    }
    case 'list_creative_formats': {
      const formats = listFormats(input.channel as Channel | undefined)
      return { data: { formats }, summary: `${formats.length} creative format(s)` }
    }
    case 'create_media_buy': {
      const buy = book.create({
        product_id: String(input.product_id),
        budget: Number(input.budget),
        buying_mode: input.buying_mode as BuyingMode,
      })
      return { data: { media_buy: buy }, summary: `Created ${buy.media_buy_id} for ${buy.budget} USD (${buy.buying_mode})` }
    }
    case 'get_delivery_report': {
      const buy = book.get(String(input.media_buy_id))
      if (!buy) throw new MediaBuyError(`unknown media_buy_id "${input.media_buy_id}"`)
      // The deliberate, documented difference between the demo's two faces: over A2A the delivery report
      // also names its currency; over MCP it does not. A first replay of the demo recording shows it.
      return {
        data: { report: { ...deliveryReport(buy), currency: 'USD' } },
        summary: `Delivered ${deliveryReport(buy).impressions} impressions`,
      }
    }
  }
}

/**
 * The media-sales agent over A2A: the same skills as the MCP tools; asks a follow-up question
 * (INPUT_REQUIRED) when a required input is missing and completes on the answer; streams status and
 * artifacts. Each context has its own book of buys, as each MCP session does.
 */
export class MediaSalesExecutor implements AgentExecutor {
  private readonly books = new Map<string, MediaBuyBook>()
  /** What a task parked in INPUT_REQUIRED is waiting for. */
  private readonly pending = new Map<string, { skill: SkillId; input: Input; asked: string; contextId: string }>()

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
    const waiting = this.pending.get(taskId)
    let skill = turn.skill ?? waiting?.skill
    const input: Input = { ...(waiting?.input ?? {}), ...turn.input }
    if (waiting && !turn.skill && turn.text && !(waiting.asked in turn.input)) input[waiting.asked] = answer(waiting.asked, turn.text)
    if (!skill) {
      if (!turn.text.trim()) {
        publishStatus(
          TaskState.TASK_STATE_FAILED,
          agentMessage(taskId, contextId, [textPart('Send text, or a data part {"skill": …, "input": {…}}.')]),
        )
        return
      }
      skill = 'search_products'
      input.brief = turn.text.trim()
    }

    const missing = SKILLS[skill].required.find((field) => input[field] === undefined || input[field] === '')
    if (missing) {
      this.pending.set(taskId, { skill, input, asked: missing, contextId })
      publishStatus(
        TaskState.TASK_STATE_INPUT_REQUIRED,
        agentMessage(taskId, contextId, [textPart(QUESTIONS[missing]), dataPart({ missing: [missing], skill })]),
      )
      return
    }
    this.pending.delete(taskId)
    publishStatus(TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, [textPart(`Running ${skill}…`)]))

    let book = this.books.get(contextId)
    if (!book) this.books.set(contextId, (book = new MediaBuyBook()))
    try {
      const { data: result, summary } = runSkill(skill, input, book)
      // Like the MCP face, echo the buyer's context untouched.
      const data = input.context && typeof input.context === 'object' ? { ...result, context: input.context } : result
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: {
            artifactId: randomUUID(),
            name: skill,
            description: SKILLS[skill].description,
            parts: [dataPart(data)],
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      )
      publishStatus(TaskState.TASK_STATE_COMPLETED, agentMessage(taskId, contextId, [textPart(summary)]))
    } catch (error) {
      if (!(error instanceof MediaBuyError)) throw error
      publishStatus(TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, [textPart(error.message)]))
    }
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
    description: 'Searches advertising products, lists creative formats and books media buys; asks for what is missing.',
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
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: Object.entries(SKILLS).map(([id, s]) => ({
      id,
      name: s.name,
      description: s.description,
      tags: ['media-sales'],
      examples: id === 'create_media_buy' ? ['buy prod_mobile_run 2000 auction'] : id === 'search_products' ? ['search sports video'] : [],
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
