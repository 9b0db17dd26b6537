import { z } from 'zod'
import {
  ADCP_VERSION,
  deliveryOf,
  listFormats,
  MediaBuyError,
  type MediaSeller,
  PRODUCTS,
  searchProducts,
  type Channel,
  type DeliveryType,
  type MediaBuy,
  type MediaBuyRequest,
} from './mediaSales'

/**
 * The demo seller's AdCP tasks, one definition each for every face: its input (the MCP tool's schema, and
 * the check the A2A and ACP faces run), what it does, and its AdCP response. A face only carries them.
 */

/** Buyers send an opaque `context` object; a well-behaved seller echoes it back untouched. */
const context = z.record(z.string(), z.unknown()).optional().describe('Opaque buyer context, echoed back unchanged in the response')
const account = z
  .looseObject({
    account_id: z.string().optional(),
    brand: z.looseObject({ domain: z.string() }).optional(),
    operator: z.string().optional(),
  })
  .describe('The account the buy is made for: { account_id } or { brand, operator }')
const brand = z.looseObject({ domain: z.string().min(1) }).describe("The advertiser's brand, by its domain")
const mediaBuyIds = z.array(z.string()).optional().describe('The media buys to read (all of them when absent)')

export const TASK_INPUTS = {
  get_adcp_capabilities: { protocols: z.array(z.string()).optional(), context },
  get_products: {
    buying_mode: z.enum(['brief', 'wholesale', 'refine']).describe('brief: match a brief; wholesale: the whole catalog'),
    brief: z.string().optional().describe('What the campaign wants to achieve, in plain words'),
    brand: brand.optional(),
    account: account.optional(),
    filters: z
      .looseObject({
        channels: z.array(z.enum(['display', 'olv', 'podcast', 'ctv'])).optional(),
        delivery_type: z.enum(['guaranteed', 'non_guaranteed']).optional(),
      })
      .optional(),
    pagination: z.looseObject({ max_results: z.number().int().min(1).max(100).optional() }).optional(),
    context,
  },
  list_creative_formats: {
    format_ids: z.array(z.looseObject({ agent_url: z.string(), id: z.string() })).optional(),
    name_search: z.string().optional(),
    context,
  },
  create_media_buy: {
    idempotency_key: z.string().optional().describe('The same key again gets the buy it created, not a second one'),
    buyer_ref: z.string().optional(),
    account,
    brand,
    start_time: z.string().describe('"asap" or an ISO 8601 date-time'),
    end_time: z.string().describe('ISO 8601 date-time'),
    packages: z
      .array(
        z.looseObject({
          product_id: z.string(),
          pricing_option_id: z.string(),
          budget: z.number().positive(),
          bid_price: z.number().positive().optional(),
          buyer_ref: z.string().optional(),
        }),
      )
      .min(1),
    context,
  },
  get_media_buys: { account: account.optional(), media_buy_ids: mediaBuyIds, context },
  get_media_buy_delivery: { account: account.optional(), media_buy_ids: mediaBuyIds, context },
} as const

export type TaskName = keyof typeof TASK_INPUTS
type Input = Record<string, unknown>

export const TASKS: Record<TaskName, { title: string; description: string }> = {
  get_adcp_capabilities: { title: 'AdCP capabilities', description: 'Which AdCP protocols, versions and features this seller supports.' },
  get_products: {
    title: 'Get products',
    description: 'Advertising products that match a campaign brief (buying_mode "brief"), or the whole catalog.',
  },
  list_creative_formats: { title: 'List creative formats', description: 'The creative formats this seller accepts.' },
  create_media_buy: { title: 'Create media buy', description: 'Book packages of products, each with a pricing option and a budget.' },
  get_media_buys: { title: 'Get media buys', description: 'The state of media buys created with this seller.' },
  get_media_buy_delivery: { title: 'Get media buy delivery', description: 'Delivery so far (impressions, spend) for media buys.' },
}

export const CAPABILITIES = {
  adcp: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86_400 } },
  supported_protocols: ['media_buy'],
  media_buy: {
    supported_pricing_models: ['cpm'],
    features: { inline_creative_management: false, property_list_filtering: false },
  },
} as const

const packageState = (buy: MediaBuy) =>
  buy.packages.map(({ package_id, product_id, budget, bid_price, buyer_ref }) => ({
    package_id,
    product_id,
    budget,
    currency: buy.currency,
    ...(bid_price !== undefined && { bid_price }),
    ...(buyer_ref && { buyer_ref }),
  }))

const RUN: Record<TaskName, (input: Input, seller: MediaSeller) => Input> = {
  get_adcp_capabilities: () => CAPABILITIES,
  get_products: (input) => {
    if (input.buying_mode === 'refine')
      throw new MediaBuyError('UNSUPPORTED_FEATURE', 'this seller does not refine: send a brief', 'buying_mode')
    if (input.buying_mode === 'brief' && !String(input.brief ?? '').trim())
      throw new MediaBuyError('INVALID_REQUEST', 'buying_mode "brief" needs a brief', 'brief')
    const filters = (input.filters ?? {}) as { channels?: Channel[]; delivery_type?: DeliveryType }
    const max_results = (input.pagination as { max_results?: number } | undefined)?.max_results
    return { products: searchProducts({ brief: input.buying_mode === 'brief' ? String(input.brief) : undefined, ...filters, max_results }) }
  },
  list_creative_formats: (input) => ({ formats: listFormats(input) }),
  create_media_buy: (input, seller) => {
    const buy = seller.create(input as unknown as MediaBuyRequest)
    return {
      media_buy_id: buy.media_buy_id,
      ...(buy.buyer_ref && { buyer_ref: buy.buyer_ref }),
      status: buy.status,
      packages: packageState(buy),
    }
  },
  get_media_buys: (input, seller) => ({
    media_buys: seller.find(input.media_buy_ids as string[] | undefined).map((buy) => ({
      media_buy_id: buy.media_buy_id,
      ...(buy.buyer_ref && { buyer_ref: buy.buyer_ref }),
      status: buy.status,
      currency: buy.currency,
      total_budget: buy.total_budget,
      start_time: buy.start_time,
      end_time: buy.end_time,
      packages: packageState(buy),
    })),
  }),
  get_media_buy_delivery: (input, seller) => {
    const buys = seller.find(input.media_buy_ids as string[] | undefined)
    // The buys' flights, from the first start to the last end (no buys: an empty period, now).
    const times = (key: 'start_time' | 'end_time') => buys.map((b) => b[key]).sort()
    const now = new Date().toISOString()
    return {
      reporting_period: { start: times('start_time')[0] ?? now, end: times('end_time').at(-1) ?? now },
      currency: 'USD',
      media_buy_deliveries: buys.map(deliveryOf),
    }
  },
}

/**
 * A task's outcome: its AdCP response, the buyer's `context` echoed. A failure is AdCP's two layers: the
 * error in the payload's `errors[]` (the error arm, where the task's response has one) and on the envelope
 * as `adcp_error`; the faces mark the call failed (MCP `isError`, A2A `failed`).
 */
export interface TaskOutcome {
  ok: boolean
  data: Input
  summary: string
}

/** Checks `input` against the task's schema and runs it: the one behaviour every face of the seller has. */
export function runTask(task: TaskName, input: Input, seller: MediaSeller): TaskOutcome {
  const echo = input.context && typeof input.context === 'object' ? { context: input.context } : {}
  const parsed = z.object(TASK_INPUTS[task]).safeParse(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = issue.path.join('.')
    return failed(new MediaBuyError('INVALID_REQUEST', `${field ? `${field}: ` : ''}${issue.message}`, field || undefined), echo)
  }
  try {
    const data = RUN[task](parsed.data as Input, seller)
    return { ok: true, data: { ...data, ...echo }, summary: summaryOf(task, data) }
  } catch (error) {
    if (error instanceof MediaBuyError) return failed(error, echo)
    throw error
  }
}

function failed(error: MediaBuyError, echo: Input): TaskOutcome {
  const adcpError = { code: error.code, message: error.message, recovery: error.recovery, ...(error.field && { field: error.field }) }
  return {
    ok: false,
    data: { errors: [adcpError], adcp_error: adcpError, ...echo },
    summary: `${error.code}: ${error.message}`,
  }
}

function summaryOf(task: TaskName, data: Input): string {
  const count = (key: string) => (data[key] as unknown[]).length
  switch (task) {
    case 'get_adcp_capabilities':
      return `AdCP ${ADCP_VERSION}: media_buy`
    case 'get_products':
      return `Found ${count('products')} product(s): ${(data.products as { product_id: string }[]).map((p) => p.product_id).join(', ')}`
    case 'list_creative_formats':
      return `${count('formats')} creative format(s)`
    case 'create_media_buy':
      return `Created ${String(data.media_buy_id)} (${String(data.status)})`
    case 'get_media_buys':
      return `${count('media_buys')} media buy(s)`
    case 'get_media_buy_delivery': {
      const deliveries = data.media_buy_deliveries as { totals: { impressions: number } }[]
      return `Delivered ${deliveries.reduce((sum, d) => sum + d.totals.impressions, 0)} impressions`
    }
  }
}

export const isTask = (name: string): name is TaskName => name in TASK_INPUTS

/**
 * The AdCP request a buy in words makes (A2A's "buy prod_mobile_run 2000 acmeoutdoor.example", ACP's plain
 * prompt): one package at the product's pricing option, for the brand's own account, from now for 30 days.
 */
export function conversationalBuy(asked: { product_id: string; budget: number; brand: string }): Record<string, unknown> {
  const pricing = PRODUCTS.find((p) => p.product_id === asked.product_id)?.pricing_options[0].pricing_option_id ?? 'cpm_auction'
  const end = new Date(Date.now() + 30 * 86_400_000)
  end.setUTCHours(23, 59, 59, 0)
  return {
    brand: { domain: asked.brand },
    account: { brand: { domain: asked.brand }, operator: asked.brand },
    start_time: 'asap',
    end_time: end.toISOString().replace('.000Z', 'Z'),
    packages: [{ product_id: asked.product_id, pricing_option_id: pricing, budget: asked.budget }],
  }
}
