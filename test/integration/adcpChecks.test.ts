import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { CallReport, SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { callFindings } from '../../shared/hooks/callInspector'
import { startA2aSeller, type RunningSeller } from '../fixtures/adcp/a2aSeller'
import type { SellerMode } from '../fixtures/adcp/sellerTasks'
import { cliRunner } from '../fixtures/cli'
import { EventRecorder } from '../fixtures/events'
import { a2aTarget, approveAll, fixtureTarget } from '../fixtures/targets'

const FORMAT_ID_RULE = {
  phase: 'response',
  schema: '/schemas/3.0.6/core/format-id.json',
  instancePath: '/formats/0/format_id',
  schemaPath: '#/type',
  message: 'must be object',
}

let engine: Engine | undefined
let seller: RunningSeller | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  await seller?.close()
  seller = undefined
})

const sellerOverMcp = (mode: SellerMode): SavedTarget => ({ ...fixtureTarget('adcpSeller', [mode]), id: `adcp-mcp-${mode}` })
async function sellerOverA2a(mode: SellerMode): Promise<SavedTarget> {
  seller = await startA2aSeller(mode)
  return { ...a2aTarget(seller.url), id: `adcp-a2a-${mode}` }
}

/** An engine's session to the seller, once it has said what it offers (its tools, or its card and skills). */
async function connect(target: SavedTarget): Promise<{ call: (tool: string, args: Record<string, unknown>) => Promise<CallReport> }> {
  const e = (engine = new Engine({ host: 'cli', approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } }))
  const recorder = new EventRecorder(e)
  const { connectionId } = await e.invoke('connections.open', { target: { ...target, origin: 'user' } })
  await recorder.waitFor((ev) => ev.type === 'discovery' && ev.connectionId === connectionId && ev.status === 'called', 20_000)
  return { call: (tool, args) => e.invoke('tools.call', { connectionId, tool, arguments: args }) }
}

describe.each([
  ['MCP', sellerOverMcp],
  ['A2A', sellerOverA2a],
] as const)('an AdCP seller over %s, checked against AdCP 3.0.6', (_protocol, targetFor) => {
  it('the old string format_id is an AdCP finding with its schema path; the call fails', async () => {
    const { call } = await connect(await targetFor('legacy'))
    const report = await call('list_creative_formats', {})
    expect(report.adcp).toMatchObject({ release: '3.0.6', task: 'list_creative_formats', known: true, findings: [FORMAT_ID_RULE] })
    expect(callFindings(report)).toContain(
      'AdCP 3.0.6 list_creative_formats response: /formats/0/format_id must be object (/schemas/3.0.6/core/format-id.json, schema path #/type)',
    )
  })

  it('a conformant answer has no AdCP finding', async () => {
    const { call } = await connect(await targetFor('conformant'))
    const report = await call('list_creative_formats', { context: { buyer_ref: 'b-1' } })
    expect(report.adcp).toMatchObject({ release: '3.0.6', task: 'list_creative_formats', findings: [] })
    expect(report.contextEcho).toMatchObject({ present: true, echoed: true, matchesRaw: true })
    expect(callFindings(report)).toEqual([])
  })

  it("a request that breaks the task's schema is a finding on the request", async () => {
    const { call } = await connect(await targetFor('conformant'))
    const report = await call('get_products', { buying_mode: 'haggle' })
    expect(report.adcp?.findings).toEqual([
      expect.objectContaining({
        phase: 'request',
        schema: '/schemas/3.0.6/media-buy/get-products-request.json',
        instancePath: '/buying_mode',
      }),
    ])
  })

  it("envelope fields the task does not define are the protocol's; the task's own fields are not", async () => {
    const { call } = await connect(await targetFor('conformant'))
    const report = await call('get_products', { buying_mode: 'brief', brief: 'sports', task_id: 't-1', adcp_version: '3.0.6' })
    expect(report.lint.map((l) => [l.where, l.path])).toEqual([['arguments', '/task_id']])
    expect(report.lint[0].message).toContain("AdCP 3.0.6's protocol envelope; get_products's request does not define it")
    // A field the task defines is the task's, whatever the envelope also says: create_media_buy defines push_notification_config, get_products does not.
    const webhook = {
      push_notification_config: {
        url: 'https://buyer.example/hooks',
        authentication: { schemes: ['Bearer'], credentials: 'x'.repeat(32) },
      },
    }
    expect((await call('get_products', { buying_mode: 'brief', brief: 'sports', ...webhook })).lint.map((l) => l.path)).toEqual([
      '/push_notification_config',
    ])
    expect((await call('create_media_buy', webhook)).lint).toEqual([])
    // The envelope wraps the task's arguments: a field of the same name inside them is the task's.
    expect(
      (await call('get_products', { buying_mode: 'brief', brief: 'sports', filters: { status: 'active', message: 'hi' } })).lint,
    ).toEqual([])
  })

  it("the context comes back unchanged, as AdCP's context object must: a seller's addition is a finding", async () => {
    const { call } = await connect(await targetFor('legacy'))
    const report = await call('get_products', { buying_mode: 'brief', brief: 'sports', context: { buyer_ref: 'b-1' } })
    expect(report.contextEcho).toMatchObject({ present: true, echoed: true, matchesRaw: false })
    expect(callFindings(report)).toContain("the response's context is not the raw context")
  })
})

describe('which agents are AdCP agents', () => {
  const listed = (listing: string): SavedTarget => ({ ...fixtureTarget('adcpSeller', ['legacy', listing]), id: `adcp-${listing}` })

  it("AdCP's tasks in AdCP's shape make an AdCP agent, without get_adcp_capabilities", async () => {
    const { call } = await connect(listed('tasks-only'))
    const report = await call('list_creative_formats', {})
    expect(report.adcp).toMatchObject({ recognised: expect.stringContaining("in AdCP's shape"), findings: [FORMAT_ID_RULE] })
  })

  it("an A2A card that tags its skills adcp, as AdCP's SDK does, is an AdCP agent's", async () => {
    seller = await startA2aSeller('legacy', 'tags')
    const { call } = await connect({ ...a2aTarget(seller.url), id: 'adcp-a2a-tags' })
    const report = await call('list_creative_formats', {})
    expect(report.adcp).toMatchObject({ recognised: expect.stringContaining('tagged adcp'), findings: [FORMAT_ID_RULE] })
  })

  it("tools that only share AdCP's task names (arguments of their own) are not checked against AdCP", async () => {
    const { call } = await connect(listed('lookalike'))
    const report = await call('list_creative_formats', {})
    expect(report.adcp).toBeUndefined()
    expect(callFindings(report)).toEqual([])
  })
})

describe('parallax call and converse --json against an AdCP seller', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-adcp-cli-'))
  const parallax = cliRunner(dir)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('reports the old string format_id as an AdCP finding with its schema path, and exits 1', async () => {
    const spec = sellerOverMcp('legacy').spec as { command: string; args: string[] }
    const run = await parallax('call', `stdio:${[spec.command, ...spec.args].join(' ')}`, 'list_creative_formats', '--json')
    const out = JSON.parse(run.stdout)
    expect(out.adcp).toMatchObject({ release: '3.0.6', findings: [FORMAT_ID_RULE] })
    expect(out.findings).toEqual([
      expect.stringContaining('AdCP 3.0.6 list_creative_formats response: /formats/0/format_id must be object'),
    ])
    expect(run.code).toBe(1)
  })

  it('converse over A2A reports the turn that breaks the schema, and exits 1; a conformant turn passes', async () => {
    seller = await startA2aSeller('legacy')
    const turn = JSON.stringify({ skill: 'list_creative_formats', input: {} })
    const run = await parallax('converse', `a2a:${seller.url}`, '--turn', turn, '--json')
    const out = JSON.parse(run.stdout)
    expect(out.turns[0].adcp).toMatchObject({ release: '3.0.6', task: 'list_creative_formats', findings: [FORMAT_ID_RULE] })
    expect(run.code).toBe(1)
    await seller.close()
    seller = await startA2aSeller('conformant')
    const passing = await parallax('converse', `a2a:${seller.url}`, '--turn', turn, '--json')
    expect(JSON.parse(passing.stdout).turns[0].adcp).toMatchObject({ release: '3.0.6', findings: [] })
    expect(passing.code).toBe(0)
  })

  it('the engine says which call broke the schema as an event, with its turn', async () => {
    const { call } = await connect(sellerOverMcp('legacy'))
    const recorder = new EventRecorder(engine!)
    const report = await call('list_creative_formats', {})
    expect(recorder.events.filter((e) => e.type === 'adcp')).toEqual([
      expect.objectContaining({
        type: 'adcp',
        release: '3.0.6',
        task: 'list_creative_formats',
        turn: report.turn,
        findings: [FORMAT_ID_RULE],
      }),
    ])
    expect(report.turn).toBe(1)
  })
})
