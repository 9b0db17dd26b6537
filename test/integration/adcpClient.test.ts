import { afterEach, describe, expect, it } from 'vitest'
import { startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { startStreamableServer } from '../../shared/demo/httpServers'
import { createToolServer } from '../../shared/demo/mcpServers'
import { MediaSeller } from '../../shared/demo/mediaSales'
// AdCP's own client and schemas, loaded from test/adcp (where the client finds the A2A SDK it declares).
import { buyTwiceWithOneKey, driveSeller, refusedBuy } from '../adcp/drive.mjs'
import { ADCP_RELEASE, releaseErrors } from '../adcp/schemas.mjs'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- AdCP's answers, checked against AdCP's schemas
type Step = { success: boolean; status?: string; data?: Record<string, any>; error?: string }
type Session = Record<'capabilities' | 'require' | 'products' | 'formats' | 'buy' | 'mediaBuys' | 'delivery', Step>

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

/** The demo seller's MCP face over streamable HTTP: one seller behind every session, as a seller keeps its buys. */
async function mcpSeller(): Promise<string> {
  const seller = new MediaSeller()
  const server = await startStreamableServer(() => createToolServer({ seller }))
  stops.push(() => server.close())
  return server.url
}

async function a2aSeller(): Promise<string> {
  const agent = await startMediaSalesAgent()
  stops.push(() => agent.close())
  return agent.url
}

const TASKS = {
  capabilities: 'get_adcp_capabilities',
  products: 'get_products',
  formats: 'list_creative_formats',
  buy: 'create_media_buy',
  mediaBuys: 'get_media_buys',
  delivery: 'get_media_buy_delivery',
} as const

/** What a buyer checks of one session: every task accepted, conformant to the release, the buy read back. */
function expectConformantSession(session: Session, protocol: string) {
  expect(session.require).toEqual({ success: true, error: undefined })
  for (const [step, task] of Object.entries(TASKS)) {
    const { success, status, data, error } = session[step as keyof typeof TASKS]
    expect({ step, success, status, error }).toEqual({ step, success: true, status: 'completed', error: undefined })
    // The client adds the MCP text beside the data as `_message`: not part of the seller's answer.
    const { _message, ...answer } = data ?? {}
    expect({ task, errors: releaseErrors(task, 'response', answer) }).toEqual({ task, errors: [] })
    expect(answer.context).toEqual({ correlation_id: `${protocol}-${step === 'mediaBuys' ? 'media-buys' : step}` })
  }
  const id = session.buy.data!.media_buy_id as string
  expect(id).toMatch(/^mb_/)
  expect(session.mediaBuys.data!.media_buys.map((b: { media_buy_id: string }) => b.media_buy_id)).toEqual([id])
  const [delivery] = session.delivery.data!.media_buy_deliveries
  expect(delivery.media_buy_id).toBe(id)
  expect(delivery.totals.impressions).toBeGreaterThan(0)
  expect(delivery.totals.spend).toBeGreaterThan(0)
}

/** A session's answers, with the correlation ids (which name the protocol) left out. */
function outcome(session: Session) {
  const answers = Object.fromEntries(
    Object.keys(TASKS).map((step) => {
      const { _message, context: _context, ...answer } = session[step as keyof typeof TASKS].data ?? {}
      return [step, answer]
    }),
  )
  return answers
}

describe(`AdCP's own client (@adcp/client 4.8.0) buys from the demo seller (AdCP ${ADCP_RELEASE})`, () => {
  it('over MCP (streamable HTTP): every task accepted and validated, a media buy created and its delivery read back', async () => {
    const session = (await driveSeller({ protocol: 'mcp', url: await mcpSeller() })) as Session
    expectConformantSession(session, 'mcp')
  })

  it('over A2A: the card declares AdCP and its skills by task, every task accepted and validated, the buy read back', async () => {
    const url = await a2aSeller()
    const card = await (await fetch(`${url}/.well-known/agent-card.json`)).json()
    expect(card.capabilities.extensions).toContainEqual(
      expect.objectContaining({
        uri: 'https://adcontextprotocol.org/extensions/adcp',
        params: expect.objectContaining({ adcp_version: ADCP_RELEASE, protocols_supported: ['media_buy'] }),
      }),
    )
    expect(card.skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(Object.values(TASKS)))
    const session = (await driveSeller({ protocol: 'a2a', url })) as Session
    expectConformantSession(session, 'a2a')
  })

  it('the same outcome on both protocols', async () => {
    const [mcp, a2a] = (await Promise.all([
      driveSeller({ protocol: 'mcp', url: await mcpSeller() }),
      driveSeller({ protocol: 'a2a', url: await a2aSeller() }),
    ])) as Session[]
    // The one deliberate difference between the demo's faces (a2aAgent.ts): over A2A a delivery also names its pricing model.
    const a2aOutcome = outcome(a2a)
    for (const delivery of a2aOutcome.delivery.media_buy_deliveries) expect(delivery).toMatchObject({ pricing_model: 'cpm' })
    a2aOutcome.delivery.media_buy_deliveries = a2aOutcome.delivery.media_buy_deliveries.map(
      ({ pricing_model: _, ...rest }: Record<string, unknown>) => rest,
    )
    expect(a2aOutcome).toEqual(outcome(mcp))
  })

  it('a retried buy with the same idempotency_key gets the buy it made, not a second one, on both protocols', async () => {
    for (const [protocol, url] of [
      ['mcp', await mcpSeller()],
      ['a2a', await a2aSeller()],
    ] as const) {
      const { first, again, request } = await buyTwiceWithOneKey({ protocol, url })
      expect(releaseErrors('create_media_buy', 'request', request)).toEqual([])
      expect({ protocol, first: first.success, again: again.success }).toEqual({ protocol, first: true, again: true })
      expect(first.data).toMatchObject({ media_buy_id: 'mb_0001', buyer_ref: 'campaign-retried' })
      expect(again.data).toEqual(first.data)
    }
  })

  it('a buy the seller refuses (a budget below the minimum) fails on both protocols, as the client reports it', async () => {
    const [mcp, a2a] = await Promise.all([
      refusedBuy({ protocol: 'mcp', url: await mcpSeller() }),
      refusedBuy({ protocol: 'a2a', url: await a2aSeller() }),
    ])
    expect(mcp).toMatchObject({ success: false, error: expect.stringMatching(/^BUDGET_TOO_LOW: budget 10 is below the minimum/) })
    // @adcp/client 4.8.0 reads a failed A2A task's reason from the JSON-RPC envelope, where A2A has none: it says only that it failed.
    expect(a2a).toMatchObject({ success: false, error: expect.stringMatching(/^Task failed/) })
  })
})
