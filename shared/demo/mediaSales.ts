/**
 * The demo media-sales agent's domain: an inventory of advertising products, creative formats, and
 * media buys. Pure logic with no protocol in it, so the MCP face (and later faces) share it.
 */

export type Channel = 'display' | 'video' | 'audio' | 'ctv'

export interface Product {
  product_id: string
  name: string
  channel: Channel
  format_ids: string[]
  cpm: number
  min_budget: number
  countries: string[]
  description: string
}

export interface CreativeFormat {
  format_id: string
  name: string
  channel: Channel
  width?: number
  height?: number
  duration_s?: number
}

export const FORMATS: readonly CreativeFormat[] = [
  { format_id: 'display_300x250', name: 'Medium rectangle', channel: 'display', width: 300, height: 250 },
  { format_id: 'display_728x90', name: 'Leaderboard', channel: 'display', width: 728, height: 90 },
  { format_id: 'display_320x50', name: 'Mobile banner', channel: 'display', width: 320, height: 50 },
  { format_id: 'video_15s', name: 'Pre-roll 15 s', channel: 'video', duration_s: 15 },
  { format_id: 'video_30s', name: 'Pre-roll 30 s', channel: 'video', duration_s: 30 },
  { format_id: 'audio_30s', name: 'Audio spot 30 s', channel: 'audio', duration_s: 30 },
  { format_id: 'ctv_30s', name: 'Connected TV 30 s', channel: 'ctv', duration_s: 30 },
]

export const PRODUCTS: readonly Product[] = [
  {
    product_id: 'prod_news_display',
    name: 'News homepage takeover',
    channel: 'display',
    format_ids: ['display_300x250', 'display_728x90'],
    cpm: 12.5,
    min_budget: 5000,
    countries: ['US', 'CA'],
    description: 'Premium display on national news homepages.',
  },
  {
    product_id: 'prod_sports_video',
    name: 'Live sports pre-roll',
    channel: 'video',
    format_ids: ['video_15s', 'video_30s'],
    cpm: 32,
    min_budget: 20000,
    countries: ['US'],
    description: 'Pre-roll video ahead of live sports highlights.',
  },
  {
    product_id: 'prod_mobile_run',
    name: 'Mobile run of network',
    channel: 'display',
    format_ids: ['display_320x50', 'display_300x250'],
    cpm: 4.2,
    min_budget: 1000,
    countries: ['US', 'CA', 'GB', 'DE'],
    description: 'Broad-reach mobile display across the network.',
  },
  {
    product_id: 'prod_podcast_audio',
    name: 'Podcast mid-roll',
    channel: 'audio',
    format_ids: ['audio_30s'],
    cpm: 22,
    min_budget: 3000,
    countries: ['US', 'GB'],
    description: 'Host-adjacent audio spots in top business podcasts.',
  },
  {
    product_id: 'prod_ctv_prime',
    name: 'CTV prime time',
    channel: 'ctv',
    format_ids: ['ctv_30s'],
    cpm: 45,
    min_budget: 50000,
    countries: ['US'],
    description: 'Connected TV inventory in prime-time streaming.',
  },
  {
    product_id: 'prod_outdoor_video',
    name: 'Outdoor lifestyle video',
    channel: 'video',
    format_ids: ['video_15s'],
    cpm: 18,
    min_budget: 8000,
    countries: ['US', 'CA', 'AU'],
    description: 'Video on outdoor and travel publishers.',
  },
]

export interface SearchInput {
  brief: string
  channel?: Channel
  max_results?: number
}

/** Products whose words or channel match the brief, best match first. */
export function searchProducts(input: SearchInput): Product[] {
  const words = input.brief
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2)
  const scored = PRODUCTS.filter((p) => !input.channel || p.channel === input.channel).map((p) => {
    const text = `${p.name} ${p.description} ${p.channel}`.toLowerCase()
    return { p, score: words.filter((w) => text.includes(w)).length }
  })
  const matching = scored.filter((s) => s.score > 0 || words.length === 0)
  const ranked = (matching.length ? matching : scored).sort((a, b) => b.score - a.score || a.p.cpm - b.p.cpm)
  return ranked.slice(0, input.max_results ?? 3).map((s) => s.p)
}

export function listFormats(channel?: Channel): CreativeFormat[] {
  return FORMATS.filter((f) => !channel || f.channel === channel)
}

export type BuyingMode = 'auction' | 'guaranteed'

export interface MediaBuyInput {
  product_id: string
  budget: number
  buying_mode: BuyingMode
  flight_start?: string
  flight_end?: string
}

export interface MediaBuy extends MediaBuyInput {
  media_buy_id: string
  status: 'pending_creatives'
  currency: 'USD'
  estimated_impressions: number
}

export class MediaBuyError extends Error {}

/**
 * What a free-text request to book names, as a person writes it: a product (its id, `prod_…`, or its name),
 * a budget (`$2,500`, `2500 USD`, `5k`, `for 2000`, `budget 3000`) and a buying mode (auction, guaranteed).
 * What it does not name is absent: the seller picks it.
 */
export function bookingAsked(text: string): { product_id?: string; budget?: number; buying_mode?: BuyingMode } {
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
  const buying_mode = /\bguaranteed\b/i.test(text) ? 'guaranteed' : /\bauction\b/i.test(text) ? 'auction' : undefined
  return { ...(product_id && { product_id }), ...(budget !== undefined && { budget }), ...(buying_mode && { buying_mode }) }
}

/** One seller's book of buys; ids are sequential per book so a replayed session gets the same ones. */
export class MediaBuyBook {
  private readonly buys = new Map<string, MediaBuy>()

  create(input: MediaBuyInput): MediaBuy {
    const product = PRODUCTS.find((p) => p.product_id === input.product_id)
    if (!product) throw new MediaBuyError(`unknown product_id "${input.product_id}"`)
    if (input.budget < product.min_budget) {
      throw new MediaBuyError(`budget ${input.budget} is below the minimum of ${product.min_budget} for ${product.product_id}`)
    }
    const buy: MediaBuy = {
      ...input,
      media_buy_id: `mb_${String(this.buys.size + 1).padStart(4, '0')}`,
      status: 'pending_creatives',
      currency: 'USD',
      estimated_impressions: Math.round((input.budget / product.cpm) * 1000),
    }
    this.buys.set(buy.media_buy_id, buy)
    return buy
  }

  get(mediaBuyId: string): MediaBuy | undefined {
    return this.buys.get(mediaBuyId)
  }

  get size(): number {
    return this.buys.size
  }
}

/** A delivery report that is a pure function of the buy, so replays compare equal. */
export function deliveryReport(buy: MediaBuy): { media_buy_id: string; impressions: number; spend: number; pacing: string } {
  const delivered = Math.round(buy.estimated_impressions * 0.42)
  return { media_buy_id: buy.media_buy_id, impressions: delivered, spend: Math.round(buy.budget * 0.42 * 100) / 100, pacing: 'on_track' }
}
