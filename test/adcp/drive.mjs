// Drives a seller the way an AdCP buyer does, with AdCP's own client (@adcp/client, and the A2A SDK it
// declares, both from this folder): capabilities, products, formats, a media buy, its state and its delivery.
import { SingleAgentClient } from '@adcp/client'

/** Each step's outcome as the client reports it: accepted (and validated) or not, its AdCP data, its error. */
const outcome = (result) => ({ success: result.success, status: result.status, data: result.data, error: result.error })

/**
 * One buyer's session against the seller at `url` over `protocol` ('mcp' or 'a2a'): every task through the
 * client's own method, so the client's request and response validation applies to each.
 */
export async function driveSeller({ protocol, url, brand = 'acmeoutdoor.example', operator = 'pinnacle-agency.example' }) {
  const client = new SingleAgentClient(
    { id: `seller-${protocol}`, name: 'Seller', agent_uri: url, protocol },
    { persistConversations: false },
  )
  const account = { brand: { domain: brand }, operator }
  const context = (step) => ({ correlation_id: `${protocol}-${step}` })
  const steps = {}
  steps.capabilities = outcome(await client.getAdcpCapabilities({ context: context('capabilities') }))
  let requireError
  await client.require('media_buy').catch((error) => (requireError = error.message))
  steps.require = { success: !requireError, error: requireError }
  steps.products = outcome(
    await client.getProducts({
      buying_mode: 'brief',
      brief: 'Live sports video for US fans',
      account,
      brand: { domain: brand },
      context: context('products'),
    }),
  )
  steps.formats = outcome(await client.listCreativeFormats({ context: context('formats') }))
  const product = steps.products.data?.products?.[0]
  steps.buy = outcome(
    await client.createMediaBuy({
      buyer_ref: 'campaign-1',
      account,
      brand: { domain: brand },
      start_time: '2027-04-01T00:00:00Z',
      end_time: '2027-04-30T23:59:59Z',
      packages: product
        ? [
            {
              buyer_ref: 'package-1',
              product_id: product.product_id,
              pricing_option_id: product.pricing_options[0].pricing_option_id,
              budget: 25000,
            },
          ]
        : [],
      context: context('buy'),
    }),
  )
  const id = steps.buy.data?.media_buy_id
  steps.mediaBuys = outcome(await client.getMediaBuys({ account, media_buy_ids: id ? [id] : [], context: context('media-buys') }))
  steps.delivery = outcome(await client.getMediaBuyDelivery({ account, media_buy_ids: id ? [id] : [], context: context('delivery') }))
  return steps
}

/** A buy the seller must refuse (a budget below the product's minimum), as AdCP's client reports it. */
export async function refusedBuy({ protocol, url }) {
  const client = new SingleAgentClient(
    { id: `seller-${protocol}`, name: 'Seller', agent_uri: url, protocol },
    { persistConversations: false },
  )
  const account = { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' }
  return outcome(
    await client.createMediaBuy({
      buyer_ref: 'campaign-too-small',
      account,
      brand: { domain: 'acmeoutdoor.example' },
      start_time: '2027-04-01T00:00:00Z',
      end_time: '2027-04-30T23:59:59Z',
      packages: [{ buyer_ref: 'package-1', product_id: 'prod_mobile_run', pricing_option_id: 'cpm_auction', budget: 10 }],
      context: { correlation_id: `${protocol}-refused` },
    }),
  )
}

/**
 * The same create_media_buy sent twice with one idempotency_key (which AdCP 3.0.6 requires on a mutating task),
 * through the client's generic executeTask: its createMediaBuy validates requests against an earlier schema
 * that refuses the key.
 */
export async function buyTwiceWithOneKey({ protocol, url }) {
  const client = new SingleAgentClient(
    { id: `seller-${protocol}`, name: 'Seller', agent_uri: url, protocol },
    { persistConversations: false },
  )
  const request = {
    idempotency_key: `${protocol}-retry-0123456789abcdef`,
    buyer_ref: 'campaign-retried', // the client's own response schema still requires it echoed
    account: { brand: { domain: 'acmeoutdoor.example' }, operator: 'pinnacle-agency.example' },
    brand: { domain: 'acmeoutdoor.example' },
    start_time: '2027-04-01T00:00:00Z',
    end_time: '2027-04-30T23:59:59Z',
    packages: [{ product_id: 'prod_mobile_run', pricing_option_id: 'cpm_auction', budget: 2000 }],
  }
  const first = outcome(await client.executeTask('create_media_buy', request))
  // The retry's body differs (its buyer_ref): a seller that honours the key answers with the buy it made.
  const again = outcome(await client.executeTask('create_media_buy', { ...request, buyer_ref: 'campaign-retried-again' }))
  return { first, again, request }
}
