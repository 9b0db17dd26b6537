import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { TOOL_CATEGORIES_HINT } from '../contract/profiles'
import { PARALLAX_VERSION } from '../version'
import { cpmOf, FORMATS, MediaSeller, PRODUCTS } from './mediaSales'
import { runTask, TASK_INPUTS, TASKS, type TaskName } from './sellerTasks'

/** Buyers send an opaque `context` object; a well-behaved seller echoes it back untouched. */
const context = z.record(z.string(), z.unknown()).optional().describe('Opaque buyer context, echoed back in the response')

function toolResult(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data }
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

export interface ToolServerOptions {
  /**
   * The deliberate bug for the context-echo check: the seller runs its own pre-validation step that
   * stamps the buyer's context, and echoes the stamped context instead of the one it was sent.
   */
  echoChangedContext?: boolean
  /** The seller behind the tools (its book of buys); a server of its own by default, as each stdio process is. */
  seller?: MediaSeller
}

/** The tasks listed from the start; `get_media_buy_delivery` joins them with the seller's first buy. */
const FIRST_TASKS: TaskName[] = ['get_adcp_capabilities', 'get_products', 'list_creative_formats', 'create_media_buy', 'get_media_buys']

/**
 * The demo tool server: an AdCP seller (media buy protocol, AdCP 3.0.6), one tool per task. Creating the
 * seller's first media buy registers `get_media_buy_delivery`, which makes the server send
 * `notifications/tools/list_changed`. Every tool echoes the buyer's `context` untouched (unless `echoChangedContext`).
 */
export function createToolServer(options: ToolServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'parallax-demo-media-sales', version: PARALLAX_VERSION, title: 'Demo media-sales agent' },
    {
      instructions:
        'A media-sales agent, an AdCP seller (media buy): find products with get_products (a brief), list creative formats, then create a media buy and read its delivery.',
    },
  )
  const seller = options.seller ?? new MediaSeller()
  const register = (task: TaskName) =>
    server.registerTool(
      task,
      { ...TASKS[task], inputSchema: TASK_INPUTS[task] as z.ZodRawShape },
      async (input: Record<string, unknown>): Promise<CallToolResult> => {
        const outcome = runTask(task, input, seller)
        // AdCP's error arm: `errors[]` in the data, and the call marked failed.
        if (!outcome.ok) return { ...toolResult(outcome.data), content: [{ type: 'text' as const, text: outcome.summary }], isError: true }
        if (task === 'create_media_buy' && !deliveryListed) {
          deliveryListed = true
          register('get_media_buy_delivery')
        }
        const data = outcome.data
        const echoed = data.context as Record<string, unknown> | undefined
        return toolResult(options.echoChangedContext && echoed ? { ...data, context: { ...echoed, seller_normalized: true } } : data)
      },
    )
  // A seller with buys already (another session made them) lists delivery from the start.
  let deliveryListed = seller.size > 0
  for (const task of deliveryListed ? [...FIRST_TASKS, 'get_media_buy_delivery' as const] : FIRST_TASKS) register(task)

  // Clients may ask for categories of tools (a capability hint): the seller adds the ones it has.
  server.server.oninitialized = () => {
    const hint = server.server.getClientCapabilities()?.experimental?.[TOOL_CATEGORIES_HINT] as { categories?: unknown } | undefined
    const asked = Array.isArray(hint?.categories) ? hint.categories : []
    for (const [category, register] of Object.entries(CATEGORY_TOOLS)) if (asked.includes(category)) register(server)
  }
  return server
}

/** Tools a client gets only by asking for their category. */
const CATEGORY_TOOLS: Record<string, (server: McpServer) => void> = {
  forecasting: (server) =>
    server.registerTool(
      'forecast_delivery',
      {
        title: 'Forecast delivery',
        description: 'Estimate impressions for a product and budget before buying.',
        inputSchema: { product_id: z.string(), budget: z.number().positive(), context },
        _meta: { [TOOL_CATEGORIES_HINT]: 'forecasting' },
      },
      async ({ product_id, budget, context }) => {
        const product = PRODUCTS.find((p) => p.product_id === product_id)
        if (!product) return failure(`unknown product_id "${product_id}"`)
        return toolResult({
          forecast: { product_id, budget, impressions: Math.round((budget / cpmOf(product)) * 1000) },
          ...(context && { context }),
        })
      },
    ),
  creative: (server) =>
    server.registerTool(
      'preview_creative',
      {
        title: 'Preview creative',
        description: 'Render a placeholder preview for a creative format.',
        inputSchema: { format_id: z.string(), context },
        _meta: { [TOOL_CATEGORIES_HINT]: 'creative' },
      },
      async ({ format_id, context }) => {
        const format = FORMATS.find((f) => f.format_id.id === format_id)
        if (!format) return failure(`unknown format_id "${format_id}"`)
        return toolResult({ preview: { format_id, url: `media://previews/${format_id}.png` }, ...(context && { context }) })
      },
    ),
}

/** The demo prompt-only server: it advertises `prompts` and nothing else. */
export function createPromptServer(): McpServer {
  const server = new McpServer(
    { name: 'parallax-demo-prompts', version: PARALLAX_VERSION, title: 'Demo prompt library' },
    { instructions: 'Prompt templates for media planning. This server has no tools.' },
  )
  server.registerPrompt(
    'media_brief',
    {
      title: 'Media brief',
      description: 'Draft a media brief for a product launch.',
      argsSchema: { product: z.string().describe('What is being launched'), audience: z.string().optional() },
    },
    ({ product, audience }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Write a one-page media brief for the launch of ${product}${audience ? ` aimed at ${audience}` : ''}.`,
          },
        },
      ],
    }),
  )
  server.registerPrompt(
    'campaign_review',
    { title: 'Campaign review', description: 'Review a running campaign against its goals.', argsSchema: { goal: z.string() } },
    ({ goal }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Review the campaign's delivery against this goal: ${goal}.` } }],
    }),
  )
  return server
}

/** The demo resource-only server: the inventory as readable resources. */
export function createResourceServer(): McpServer {
  const server = new McpServer(
    { name: 'parallax-demo-inventory', version: PARALLAX_VERSION, title: 'Demo inventory' },
    { instructions: 'Read-only inventory of the demo media seller.' },
  )
  const json = (uri: URL, data: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }],
  })
  server.registerResource('products', 'media://products', { title: 'All products', mimeType: 'application/json' }, (uri) =>
    json(uri, PRODUCTS),
  )
  server.registerResource('formats', 'media://formats', { title: 'Creative formats', mimeType: 'application/json' }, (uri) =>
    json(uri, FORMATS),
  )
  server.registerResource(
    'product',
    new ResourceTemplate('media://products/{product_id}', {
      list: async () => ({ resources: PRODUCTS.map((p) => ({ uri: `media://products/${p.product_id}`, name: p.name })) }),
    }),
    { title: 'One product', mimeType: 'application/json' },
    (uri, { product_id }) => json(uri, PRODUCTS.find((p) => p.product_id === product_id) ?? null),
  )
  return server
}

export const DEMO_SERVERS = {
  tools: createToolServer,
  'tools-changed-context': () => createToolServer({ echoChangedContext: true }),
  prompts: createPromptServer,
  resources: createResourceServer,
} as const

export type DemoServerName = keyof typeof DEMO_SERVERS
