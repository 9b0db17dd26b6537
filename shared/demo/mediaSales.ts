import { ADCP_RELEASE } from '../contract/adcpAgent'

/**
 * The demo media-sales agent's domain, in AdCP's terms (the media-buy protocol of the AdCP release below):
 * products with pricing options, creative formats, media buys with packages, and their delivery. Pure logic
 * with no protocol in it: the MCP, A2A and ACP faces share it through the seller's tasks (`sellerTasks.ts`).
 */

/** The AdCP release the demo seller implements: the one Parallax follows. */
export const ADCP_VERSION = ADCP_RELEASE

/** The creative agent that defines the seller's formats: the seller itself (a name, not a place to call). */
export const FORMAT_AGENT_URL = 'https://media-sales.parallax.example'

export type Channel = 'display' | 'olv' | 'podcast' | 'ctv'
export type DeliveryType = 'guaranteed' | 'non_guaranteed'

export interface FormatId {
  agent_url: string
  id: string
}

export interface CreativeFormat {
  format_id: FormatId
  name: string
  description: string
  renders?: { role: string; dimensions: { width: number; height: number } }[]
}

export interface PricingOption {
  pricing_option_id: string
  pricing_model: 'cpm'
  currency: 'USD'
  /** Guaranteed products sell at a fixed CPM … */
  fixed_price?: number
  /** … auctioned ones clear above a floor. */
  floor_price?: number
  min_spend_per_package: number
}

export interface Product {
  product_id: string
  name: string
  description: string
  channels: Channel[]
  publisher_properties: { publisher_domain: string; selection_type: 'all' }[]
  format_ids: FormatId[]
  delivery_type: DeliveryType
  pricing_options: PricingOption[]
  delivery_measurement: { provider: string; notes?: string }
  reporting_capabilities: {
    available_reporting_frequencies: ['daily']
    expected_delay_minutes: number
    timezone: 'UTC'
    supports_webhooks: false
    available_metrics: ['impressions', 'spend']
    date_range_support: 'lifetime_only'
  }
}

const formatId = (id: string): FormatId => ({ agent_url: FORMAT_AGENT_URL, id })
const display = (id: string, name: string, width: number, height: number): CreativeFormat => ({
  format_id: formatId(id),
  name,
  description: `Display banner, ${width}×${height}.`,
  renders: [{ role: 'primary', dimensions: { width, height } }],
})
const timed = (id: string, name: string, description: string): CreativeFormat => ({ format_id: formatId(id), name, description })

export const FORMATS: readonly CreativeFormat[] = [
  display('display_300x250', 'Medium rectangle', 300, 250),
  display('display_728x90', 'Leaderboard', 728, 90),
  display('display_320x50', 'Mobile banner', 320, 50),
  timed('video_15s', 'Pre-roll 15 s', 'Pre-roll video, 15 seconds.'),
  timed('video_30s', 'Pre-roll 30 s', 'Pre-roll video, 30 seconds.'),
  timed('audio_30s', 'Audio spot 30 s', 'Audio spot read by the host, 30 seconds.'),
  timed('ctv_30s', 'Connected TV 30 s', 'Full-screen connected TV spot, 30 seconds.'),
]

interface Offer {
  product_id: string
  name: string
  description: string
  channel: Channel
  formats: string[]
  publisher: string
  delivery_type: DeliveryType
  cpm: number
  min_spend: number
}

function product(offer: Offer): Product {
  const guaranteed = offer.delivery_type === 'guaranteed'
  return {
    product_id: offer.product_id,
    name: offer.name,
    description: offer.description,
    channels: [offer.channel],
    publisher_properties: [{ publisher_domain: offer.publisher, selection_type: 'all' }],
    format_ids: offer.formats.map(formatId),
    delivery_type: offer.delivery_type,
    pricing_options: [
      {
        pricing_option_id: guaranteed ? 'cpm_fixed' : 'cpm_auction',
        pricing_model: 'cpm',
        currency: 'USD',
        ...(guaranteed ? { fixed_price: offer.cpm } : { floor_price: offer.cpm }),
        min_spend_per_package: offer.min_spend,
      },
    ],
    delivery_measurement: { provider: 'Parallax demo ad server', notes: 'Served impressions, counted by the seller.' },
    reporting_capabilities: {
      available_reporting_frequencies: ['daily'],
      expected_delay_minutes: 240,
      timezone: 'UTC',
      supports_webhooks: false,
      available_metrics: ['impressions', 'spend'],
      date_range_support: 'lifetime_only',
    },
  }
}

export const PRODUCTS: readonly Product[] = [
  {
    product_id: 'prod_news_display',
    name: 'News homepage takeover',
    description: 'Premium display on national news homepages.',
    channel: 'display',
    formats: ['display_300x250', 'display_728x90'],
    publisher: 'news.parallax.example',
    delivery_type: 'guaranteed',
    cpm: 12.5,
    min_spend: 5000,
  },
  {
    product_id: 'prod_sports_video',
    name: 'Live sports pre-roll',
    description: 'Pre-roll video ahead of live sports highlights.',
    channel: 'olv',
    formats: ['video_15s', 'video_30s'],
    publisher: 'sports.parallax.example',
    delivery_type: 'guaranteed',
    cpm: 32,
    min_spend: 20000,
  },
  {
    product_id: 'prod_mobile_run',
    name: 'Mobile run of network',
    description: 'Broad-reach mobile display across the network.',
    channel: 'display',
    formats: ['display_320x50', 'display_300x250'],
    publisher: 'network.parallax.example',
    delivery_type: 'non_guaranteed',
    cpm: 4.2,
    min_spend: 1000,
  },
  {
    product_id: 'prod_podcast_audio',
    name: 'Podcast mid-roll',
    description: 'Host-adjacent audio spots in top business podcasts.',
    channel: 'podcast',
    formats: ['audio_30s'],
    publisher: 'podcasts.parallax.example',
    delivery_type: 'non_guaranteed',
    cpm: 22,
    min_spend: 3000,
  },
  {
    product_id: 'prod_ctv_prime',
    name: 'CTV prime time',
    description: 'Connected TV inventory in prime-time streaming.',
    channel: 'ctv',
    formats: ['ctv_30s'],
    publisher: 'streaming.parallax.example',
    delivery_type: 'guaranteed',
    cpm: 45,
    min_spend: 50000,
  },
  {
    product_id: 'prod_outdoor_video',
    name: 'Outdoor lifestyle video',
    description: 'Video on outdoor and travel publishers.',
    channel: 'olv',
    formats: ['video_15s'],
    publisher: 'outdoors.parallax.example',
    delivery_type: 'non_guaranteed',
    cpm: 18,
    min_spend: 8000,
  },
].map((offer) => product(offer as Offer))

/** A product's CPM: its fixed price, or its floor for an auction. */
export const cpmOf = (p: Product): number => p.pricing_options[0].fixed_price ?? p.pricing_options[0].floor_price ?? 0

/** What the channel words of a brief mean in AdCP's channels. */
const CHANNEL_WORDS: Record<string, Channel> = {
  video: 'olv',
  audio: 'podcast',
  podcast: 'podcast',
  ctv: 'ctv',
  tv: 'ctv',
  display: 'display',
}

export interface ProductQuery {
  brief?: string
  channels?: Channel[]
  delivery_type?: DeliveryType
  max_results?: number
}

/** Products whose words or channel match the brief, best match first; with no brief, the whole catalog. */
export function searchProducts(query: ProductQuery): Product[] {
  const words = (query.brief ?? '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2)
  const eligible = PRODUCTS.filter(
    (p) =>
      (!query.channels?.length || p.channels.some((c) => query.channels!.includes(c))) &&
      (!query.delivery_type || p.delivery_type === query.delivery_type),
  )
  if (!words.length) return eligible.slice(0, query.max_results ?? eligible.length)
  const scored = eligible.map((p) => {
    const text = `${p.name} ${p.description} ${p.channels.join(' ')}`.toLowerCase()
    return { p, score: words.filter((w) => text.includes(w) || p.channels.includes(CHANNEL_WORDS[w])).length }
  })
  const matching = scored.filter((s) => s.score > 0)
  const ranked = (matching.length ? matching : scored).sort((a, b) => b.score - a.score || cpmOf(a.p) - cpmOf(b.p))
  return ranked.slice(0, query.max_results ?? 3).map((s) => s.p)
}

export function listFormats(query: { format_ids?: { id: string }[]; name_search?: string } = {}): CreativeFormat[] {
  const ids = query.format_ids?.map((f) => f.id)
  const name = query.name_search?.toLowerCase()
  return FORMATS.filter((f) => (!ids || ids.includes(f.format_id.id)) && (!name || f.name.toLowerCase().includes(name)))
}

/**
 * An AdCP error: its standard code, what went wrong, and the request field at fault. Every code the demo
 * uses is one AdCP classes as correctable: the buyer fixes the request and sends it again.
 */
export class MediaBuyError extends Error {
  readonly recovery = 'correctable'

  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

export interface PackageRequest {
  product_id: string
  pricing_option_id: string
  budget: number
  bid_price?: number
  buyer_ref?: string
}

export interface MediaBuyRequest {
  packages: PackageRequest[]
  start_time: string
  end_time: string
  buyer_ref?: string
  idempotency_key?: string
}

export interface Package extends PackageRequest {
  package_id: string
}

export interface MediaBuy {
  media_buy_id: string
  buyer_ref?: string
  status: 'active'
  currency: 'USD'
  total_budget: number
  start_time: string
  end_time: string
  packages: Package[]
}

/**
 * What a free-text request to book names, as a person writes it: a product (its id, `prod_…`, or its name),
 * a budget (`$2,500`, `2500 USD`, `5k`, `for 2000`, `budget 3000`) and the brand, by its domain
 * (`for acmeoutdoor.example`). What it does not name is absent.
 */
export function bookingAsked(text: string): { product_id?: string; budget?: number; brand?: string } {
  const lower = text.toLowerCase()
  const id = /\bprod_\w+/i.exec(text)?.[0]
  // Of the products it names, the one named first ("book X for Y fans" books X).
  const named = PRODUCTS.map((p) => ({ p, at: lower.indexOf(p.name.toLowerCase()) }))
    .filter(({ at }) => at !== -1)
    .sort((a, b) => a.at - b.at)[0]?.p
  const product_id = id ?? named?.product_id
  const money =
    /(?:\$\s?|\b(?:for|budget(?:\s+of)?|spend(?:ing)?)\s+\$?)(\d[\d,]*(?:\.\d+)?)(\s?k\b)?/i.exec(text) ??
    /\b(\d[\d,]*(?:\.\d+)?)(\s?k)?\s*(?:usd|dollars)\b/i.exec(text)
  const budget = money ? Number(money[1].replace(/,/g, '')) * (money[2] ? 1000 : 1) : undefined
  const brand = /\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b/i.exec(text)?.[0]?.toLowerCase()
  return { ...(product_id && { product_id }), ...(budget !== undefined && { budget }), ...(brand && { brand }) }
}

/** What the books of one seller share: the buy made under each idempotency key, and the buys of its other books. */
export interface SellerLedger {
  keys: Map<string, MediaBuy>
  elsewhere(id: string): MediaBuy | undefined
}

/**
 * A seller's book of buys. Ids are sequential per book, so a replayed session against a fresh book gets the
 * same ones; a repeated `idempotency_key` gets the buy it created, not a second one. A face that keeps a book
 * per conversation (A2A's contexts) gives each the seller's `ledger`, so a key or a buy made in another
 * conversation is found.
 */
export class MediaSeller {
  private readonly buys = new Map<string, MediaBuy>()

  constructor(private readonly ledger: SellerLedger = { keys: new Map(), elsewhere: () => undefined }) {}

  create(request: MediaBuyRequest): MediaBuy {
    const replayed = request.idempotency_key && this.ledger.keys.get(request.idempotency_key)
    if (replayed) return replayed
    if (!request.packages.length) throw new MediaBuyError('INVALID_REQUEST', 'a media buy needs at least one package', 'packages')
    const start = request.start_time === 'asap' ? Date.now() : Date.parse(request.start_time)
    if (Number.isNaN(start)) throw new MediaBuyError('INVALID_REQUEST', 'start_time must be "asap" or an ISO 8601 date-time', 'start_time')
    if (!(Date.parse(request.end_time) > start))
      throw new MediaBuyError('INVALID_REQUEST', 'end_time must be a date-time after start_time', 'end_time')
    const packages = request.packages.map((pkg, i) => checkedPackage(pkg, i))
    const media_buy_id = `mb_${String(this.buys.size + 1).padStart(4, '0')}`
    const buy: MediaBuy = {
      media_buy_id,
      ...(request.buyer_ref && { buyer_ref: request.buyer_ref }),
      status: 'active',
      currency: 'USD',
      total_budget: packages.reduce((sum, p) => sum + p.budget, 0),
      // "asap" is now: the buy's flight starts when it is booked.
      start_time: request.start_time === 'asap' ? new Date().toISOString() : request.start_time,
      end_time: request.end_time,
      packages: packages.map((p, i) => ({ package_id: `${media_buy_id}_pkg_${i + 1}`, ...p })),
    }
    this.buys.set(buy.media_buy_id, buy)
    if (request.idempotency_key) this.ledger.keys.set(request.idempotency_key, buy)
    return buy
  }

  /** The buys asked for (all of them when none is named); an unknown id is an error, as AdCP's uniform not-found. */
  find(ids?: string[]): MediaBuy[] {
    if (!ids?.length) return [...this.buys.values()]
    return ids.map((id) => {
      const buy = this.buys.get(id) ?? this.ledger.elsewhere(id)
      if (!buy) throw new MediaBuyError('MEDIA_BUY_NOT_FOUND', `unknown media_buy_id "${id}"`, 'media_buy_ids')
      return buy
    })
  }

  /** A buy of this book's own. */
  own(id: string): MediaBuy | undefined {
    return this.buys.get(id)
  }

  get size(): number {
    return this.buys.size
  }
}

function checkedPackage(pkg: PackageRequest, i: number): PackageRequest {
  const product = PRODUCTS.find((p) => p.product_id === pkg.product_id)
  if (!product) throw new MediaBuyError('PRODUCT_NOT_FOUND', `unknown product_id "${pkg.product_id}"`, `packages[${i}].product_id`)
  const option = product.pricing_options.find((o) => o.pricing_option_id === pkg.pricing_option_id)
  if (!option) {
    const offered = product.pricing_options.map((o) => o.pricing_option_id).join(', ')
    throw new MediaBuyError(
      'INVALID_REQUEST',
      `${product.product_id} has no pricing option "${pkg.pricing_option_id}" (it offers ${offered})`,
      `packages[${i}].pricing_option_id`,
    )
  }
  if (pkg.budget < option.min_spend_per_package)
    throw new MediaBuyError(
      'BUDGET_TOO_LOW',
      `budget ${pkg.budget} is below the minimum of ${option.min_spend_per_package} for ${product.product_id}`,
      `packages[${i}].budget`,
    )
  if (option.floor_price !== undefined && pkg.bid_price !== undefined && pkg.bid_price < option.floor_price)
    throw new MediaBuyError(
      'INVALID_REQUEST',
      `bid_price ${pkg.bid_price} is below the floor of ${option.floor_price}`,
      `packages[${i}].bid_price`,
    )
  return pkg
}

/** The CPM a package pays: the fixed price, or its bid (the floor when it bid none). */
function rateOf(pkg: PackageRequest): number {
  const option = PRODUCTS.find((p) => p.product_id === pkg.product_id)!.pricing_options[0]
  return option.fixed_price ?? pkg.bid_price ?? option.floor_price ?? 0
}

/** Delivery that is a pure function of the buy (42% of each package's budget spent), so replays compare equal. */
export function deliveryOf(buy: MediaBuy) {
  const by_package = buy.packages.map((pkg) => {
    const rate = rateOf(pkg)
    const spend = Math.round(pkg.budget * 0.42 * 100) / 100
    return {
      package_id: pkg.package_id,
      impressions: Math.round((spend / rate) * 1000),
      spend,
      pricing_model: 'cpm' as const,
      rate,
      currency: 'USD',
      pacing_index: 1,
      delivery_status: 'delivering' as const,
    }
  })
  return {
    media_buy_id: buy.media_buy_id,
    ...(buy.buyer_ref && { buyer_ref: buy.buyer_ref }),
    status: buy.status,
    totals: {
      impressions: by_package.reduce((sum, p) => sum + p.impressions, 0),
      spend: Math.round(by_package.reduce((sum, p) => sum + p.spend, 0) * 100) / 100,
    },
    by_package,
  }
}
