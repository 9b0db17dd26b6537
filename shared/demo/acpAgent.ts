import { Readable, Writable } from 'node:stream'
import { agent, ndJsonStream, RequestError, type AgentContext, type InitializeRequest } from '@agentclientprotocol/sdk/unstable'
import { ACP_HINT_FIELD, ACP_HINT_META_KEY } from '../contract/acp'
import { PARALLAX_VERSION } from '../version'
import { bookingAsked, cpmOf, FORMATS, MediaSeller, PRODUCTS } from './mediaSales'
import { conversationalBuy, runTask, TASKS, type TaskName } from './sellerTasks'

/** A tool of the seller, as an ACP agent runs it for a prompt: its kind (for the client's icons) and what it does. */
interface Tool {
  title: string
  description: string
  kind: 'search' | 'fetch' | 'edit' | 'other'
  /** Asks the user before it runs (it spends money). */
  permission?: (input: Record<string, unknown>) => string
  run(input: Record<string, unknown>, session: Session): Record<string, unknown>
}

interface Session {
  seller: MediaSeller
  tools: Map<string, Tool>
  /** The prompt in flight, stopped by `session/cancel`. */
  turn?: AbortController
}

/** A tool that failed, with what it answers (AdCP's error arm for a task). */
class ToolFailure extends Error {
  constructor(
    message: string,
    readonly output: Record<string, unknown> = { error: message },
  ) {
    super(message)
  }
}

const withContext = (input: Record<string, unknown>, data: Record<string, unknown>) =>
  input.context ? { ...data, context: input.context } : data

const KINDS: Record<TaskName, Tool['kind']> = {
  get_adcp_capabilities: 'fetch',
  get_products: 'search',
  list_creative_formats: 'fetch',
  create_media_buy: 'edit',
  get_media_buys: 'fetch',
  get_media_buy_delivery: 'fetch',
}

/** Each AdCP task of the seller as a command: the same check, behaviour and answer as its MCP tool. */
function taskTool(task: TaskName): Tool {
  return {
    ...TASKS[task],
    kind: KINDS[task],
    ...(task === 'create_media_buy' && {
      permission: (input) =>
        `Book ${((input.packages ?? []) as { product_id?: unknown; budget?: unknown }[])
          .map((p) => `${String(p.product_id)} for ${String(p.budget)} USD`)
          .join(', ')}`,
    }),
    run: (input, session) => {
      const outcome = runTask(task, input, session.seller)
      if (!outcome.ok) throw new ToolFailure(outcome.summary, outcome.data)
      // As over MCP, delivery is listed once the seller has a buy.
      if (task === 'create_media_buy' && !session.tools.has('get_media_buy_delivery'))
        session.tools.set('get_media_buy_delivery', taskTool('get_media_buy_delivery'))
      return outcome.data
    },
  }
}

const BASE_TASKS: TaskName[] = ['get_adcp_capabilities', 'get_products', 'list_creative_formats', 'create_media_buy', 'get_media_buys']

/** Tools a client gets only by asking for their category (the requested tool categories hint), as over MCP. */
const CATEGORY_TOOLS: Record<string, [string, Tool]> = {
  forecasting: [
    'forecast_delivery',
    {
      title: 'Forecast delivery',
      description: 'Estimate impressions for a product and budget before buying.',
      kind: 'other',
      run: (input) => {
        const product = PRODUCTS.find((p) => p.product_id === input.product_id)
        if (!product) throw new ToolFailure(`unknown product_id "${String(input.product_id)}"`)
        const budget = Number(input.budget)
        return withContext(input, {
          forecast: { product_id: product.product_id, budget, impressions: Math.round((budget / cpmOf(product)) * 1000) },
        })
      },
    },
  ],
  creative: [
    'preview_creative',
    {
      title: 'Preview creative',
      description: 'Render a placeholder preview for a creative format.',
      kind: 'other',
      run: (input) => {
        const format = FORMATS.find((f) => f.format_id.id === input.format_id)
        if (!format) throw new ToolFailure(`unknown format_id "${String(input.format_id)}"`)
        const id = format.format_id.id
        return withContext(input, { preview: { format_id: id, url: `media://previews/${id}.png` } })
      },
    },
  ],
}

/** The categories a client asked for: the proposal's field, else the same list under `_meta` (an agent MAY honour either). */
function requestedCategories(raw: unknown): string[] {
  const capabilities = ((raw ?? {}) as { clientCapabilities?: Record<string, unknown> }).clientCapabilities ?? {}
  const field = capabilities[ACP_HINT_FIELD]
  const meta = (capabilities._meta as Record<string, unknown> | undefined)?.[ACP_HINT_META_KEY]
  const list = Array.isArray(field) ? field : Array.isArray(meta) ? meta : []
  return list.filter((c): c is string => typeof c === 'string')
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The demo media-sales agent's ACP face: the same seller as its MCP and A2A faces. Its AdCP tasks are slash
 * commands (`/get_products {"buying_mode": "brief", "brief": …}` runs one, as a replayed MCP call does), and a plain prompt is a
 * small plan it carries out — search, (forecast, when asked for that category), book the best product after
 * asking permission — each step a tool call whose output is the same data its MCP face returns. It honours
 * the requested tool categories hint as its MCP face honours the experimental capability: read from the
 * raw `initialize` (the SDK's schema drops a field it does not know), the proposal's field or `_meta`.
 */
export function mediaSalesAcpAgent(delayMs = 120) {
  let categories: string[] = []
  const sessions = new Map<string, Session>()
  let next = 0
  const app = agent({ name: 'parallax-demo-media-sales' })
  app.onRequest(
    'initialize',
    (raw: unknown) => ({ raw, request: raw as InitializeRequest }),
    ({ params }) => {
      categories = requestedCategories(params.raw)
      return {
        protocolVersion: 1,
        agentInfo: { name: 'parallax-demo-media-sales', title: 'Demo media-sales agent', version: PARALLAX_VERSION },
        agentCapabilities: {
          loadSession: false,
          promptCapabilities: { image: false, audio: false, embeddedContext: false },
          mcpCapabilities: { http: false, sse: false },
        },
        authMethods: [],
      }
    },
  )
  app.onRequest('session/new', async ({ client }) => {
    const sessionId = `sess_${++next}`
    const tools = new Map(BASE_TASKS.map((task) => [task as string, taskTool(task)]))
    for (const category of categories) if (CATEGORY_TOOLS[category]) tools.set(...CATEGORY_TOOLS[category])
    sessions.set(sessionId, { seller: new MediaSeller(), tools })
    // Announced once the answer is on its way: the commands belong to the session it names.
    setTimeout(() => void announce(client, sessionId), 0)
    return { sessionId }
  })
  const announce = (client: AgentContext, sessionId: string) =>
    client.notify('session/update', {
      sessionId,
      update: {
        sessionUpdate: 'available_commands_update',
        availableCommands: [...sessions.get(sessionId)!.tools].map(([name, tool]) => ({
          name,
          description: tool.description,
          input: { hint: 'JSON input, as the MCP tool takes it' },
        })),
      },
    })
  app.onRequest('session/prompt', async ({ params, client, signal: request }) => {
    const session = sessions.get(params.sessionId)
    if (!session) throw RequestError.resourceNotFound(params.sessionId)
    const turn = new AbortController()
    session.turn = turn
    const signal = AbortSignal.any([turn.signal, request])
    const say = (text: string, sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk') =>
      client.notify('session/update', { sessionId: params.sessionId, update: { sessionUpdate, content: { type: 'text', text } } })
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('')
    const had = session.tools.size
    const run = async (name: string, input: Record<string, unknown>): Promise<Record<string, unknown> | undefined> => {
      const tool = session.tools.get(name)
      const id = `call_${++next}`
      if (!tool) {
        await say(`There is no /${name} here. Commands: ${[...session.tools.keys()].map((n) => `/${n}`).join(', ')}`)
        return undefined
      }
      const update = (fields: Record<string, unknown>) =>
        client.notify('session/update', {
          sessionId: params.sessionId,
          update: { sessionUpdate: 'tool_call_update', toolCallId: id, ...fields },
        })
      await client.notify('session/update', {
        sessionId: params.sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: tool.title,
          name,
          kind: tool.kind,
          status: 'pending',
          rawInput: input,
        },
      })
      if (tool.permission) {
        const answer = await client.request('session/request_permission', {
          sessionId: params.sessionId,
          toolCall: { toolCallId: id, title: tool.permission(input), name, rawInput: input },
          options: [
            { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
            { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          ],
        })
        if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId !== 'allow') {
          await update({ status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'not allowed by the user' } }] })
          return undefined
        }
      }
      await update({ status: 'in_progress' })
      await pause(delayMs)
      if (signal.aborted) return undefined
      try {
        const output = tool.run(input, session)
        await update({
          status: 'completed',
          rawOutput: output,
          content: [{ type: 'content', content: { type: 'text', text: JSON.stringify(output) } }],
        })
        return output
      } catch (error) {
        if (!(error instanceof ToolFailure)) throw error
        await update({
          status: 'failed',
          rawOutput: error.output,
          content: [{ type: 'content', content: { type: 'text', text: error.message } }],
        })
        return undefined
      }
    }

    const slash = /^\/(\w+)\s*([\s\S]*)$/.exec(text.trim())
    if (slash) {
      let input: Record<string, unknown>
      try {
        input = slash[2] ? (JSON.parse(slash[2]) as Record<string, unknown>) : {}
      } catch {
        await say(`/${slash[1]} takes JSON input, e.g. /${slash[1]} {"brief": "…"}`)
        return { stopReason: 'end_turn' }
      }
      await run(slash[1], input)
    } else {
      const wantsBuy = /\b(buy|book)\b/i.test(text)
      // What the prompt names is booked as named: the product, the budget, the brand; the rest is the seller's pick.
      const asked = wantsBuy ? bookingAsked(text) : {}
      const forecasting = session.tools.has('forecast_delivery')
      const steps = [
        'Get products for the brief',
        ...(forecasting ? ['Forecast delivery'] : []),
        ...(wantsBuy ? [asked.product_id ? `Book ${asked.product_id} as asked` : 'Book the best match'] : []),
      ]
      const plan = (done: number) =>
        client.notify('session/update', {
          sessionId: params.sessionId,
          update: {
            sessionUpdate: 'plan',
            entries: steps.map((content, i) => ({
              content,
              priority: 'medium',
              status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
            })),
          },
        })
      await say('Reading the brief and planning the steps.', 'agent_thought_chunk')
      await plan(0)
      const found = (await run('get_products', { buying_mode: 'brief', brief: text, pagination: { max_results: 3 } }))?.products as
        typeof PRODUCTS | undefined
      const named = PRODUCTS.find((p) => p.product_id === asked.product_id)
      const best = named ?? found?.[0]
      if (!best && !asked.product_id) {
        await say('Nothing in the inventory matches that brief.')
        return { stopReason: 'end_turn' }
      }
      if (named) await say(`You asked for ${named.name} (${named.product_id}). `)
      else if (asked.product_id) await say(`There is no ${asked.product_id} in the inventory. `)
      else if (best) await say(`The best match is ${best.name} (${best.product_id}). `)
      const budget = asked.budget ?? best?.pricing_options[0].min_spend_per_package
      let done = 1
      if (forecasting && best) {
        await plan(done++)
        const forecast = (await run('forecast_delivery', { product_id: best.product_id, budget }))?.forecast as
          { impressions?: number } | undefined
        if (forecast) await say(`At ${budget} USD it should deliver about ${forecast.impressions} impressions. `)
      }
      if (wantsBuy && !signal.aborted) {
        await plan(done++)
        const order = conversationalBuy({
          product_id: asked.product_id ?? best!.product_id,
          budget: budget ?? 0,
          brand: asked.brand ?? 'buyer.example',
        })
        const bought = (await run('create_media_buy', order)) as { media_buy_id?: string } | undefined
        await say(bought ? `Booked as ${bought.media_buy_id}.` : 'Nothing was booked.')
      }
      await plan(done)
    }
    if (session.tools.size !== had) await announce(client, params.sessionId)
    return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' }
  })
  app.onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.turn?.abort())
  return app
}

/** Serves the ACP face on this process's stdin and stdout (Parallax spawns it for the `demo:acp` target). */
export function serveAcpDemo(): void {
  const stream = ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>)
  const connection = mediaSalesAcpAgent().connect(stream)
  void connection.closed.then(() => process.exit(0))
}
