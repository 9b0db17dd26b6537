import { builtInDemos } from '../../shared/demo/builtIns'
import { afterEach, describe, expect, it } from 'vitest'
import type { DiscoveryEvent, FrameEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

let engine: Engine
let recorder: EventRecorder

function start(defaults: ConstructorParameters<typeof Engine>[0]['defaults'] = {}) {
  engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 60_000, ...defaults },
  })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
})

const step = (id: string, method: string) => recorder.of('discovery', id).filter((d) => d.method === method)
const framesOf = (id: string, method: string) => recorder.of('frame', id).filter((f) => f.method === method)

describe('capability-gated discovery', () => {
  it('skips tools/list on the prompt-only demo server and says why, and never sends it', async () => {
    start()
    const connection = await engine.openTarget('demo:prompts')
    await recorder.waitFor((e) => e.type === 'connection' && e.state === 'connected' && e.connectionId === connection.id, 20_000)

    const [tools] = step(connection.id, 'tools/list')
    expect(tools).toMatchObject({ status: 'skipped', trigger: 'initial', reason: 'server did not advertise the "tools" capability' })
    expect(step(connection.id, 'prompts/list')[0]).toMatchObject({ status: 'called', count: 2, pages: 1 })
    expect(step(connection.id, 'resources/list')[0].status).toBe('skipped')
    expect(step(connection.id, 'resources/templates/list')[0].status).toBe('skipped')
    expect(framesOf(connection.id, 'tools/list')).toHaveLength(0)
  })

  it('shows the handshake: versions asked and negotiated, capabilities, server info and instructions', async () => {
    start()
    const connection = await engine.openTarget('demo:tools')
    const handshake = await recorder.waitFor((e) => e.type === 'handshake' && e.connectionId === connection.id, 20_000)
    expect(handshake).toMatchObject({
      protocol: 'mcp',
      transport: 'stdio',
      requestedProtocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      clientInfo: { name: 'parallax' },
      serverCapabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'parallax-demo-media-sales' },
      instructions: expect.stringContaining('media-sales agent'),
    })
    if (handshake.type !== 'handshake' || handshake.protocol !== 'mcp') throw new Error('unreachable')
    expect(handshake.protocolVersion).toBe(handshake.requestedProtocolVersion)
    // The handshake is what crossed the wire: the initialize response frame says the same.
    const response = framesOf(connection.id, 'initialize').find((f) => f.direction === 'in')!
    expect((response.payload as { result: { protocolVersion: string } }).result.protocolVersion).toBe(handshake.protocolVersion)

    const tools = await recorder.waitFor(
      (e): e is DiscoveryEvent => e.type === 'discovery' && e.method === 'tools/list' && e.connectionId === connection.id,
    )
    expect(tools).toMatchObject({ status: 'called', count: 5 })
    expect((tools.items as { name: string }[]).map((t) => t.name)).toEqual([
      'get_adcp_capabilities',
      'get_products',
      'list_creative_formats',
      'create_media_buy',
      'get_media_buys',
    ])
  })

  it('lists only resources on the resource-only demo server', async () => {
    start()
    const connection = await engine.openTarget('demo:resources')
    await recorder.waitFor((e) => e.type === 'connection' && e.state === 'connected', 20_000)
    expect(step(connection.id, 'tools/list')[0].status).toBe('skipped')
    expect(step(connection.id, 'prompts/list')[0].status).toBe('skipped')
    expect(step(connection.id, 'resources/list')[0]).toMatchObject({ status: 'called', count: 2 + 6 })
    expect(step(connection.id, 'resources/templates/list')[0]).toMatchObject({ status: 'called', count: 1 })
  })

  it('treats -32601 on a list call as a failed step, never a failed connection', async () => {
    start({ keepaliveIntervalMs: 250 })
    const connection = await engine.createConnection(fixtureTarget('toolsWithoutHandler'))
    expect(await connection.open()).toBe(true)
    expect(step(connection.id, 'tools/list')[0]).toMatchObject({ status: 'failed', errorCode: -32601 })
    expect(step(connection.id, 'tools/list')[0].reason).toContain('-32601')
    // Keepalive: the first probe notes the lie and switches to ping; the connection stays healthy.
    await recorder.waitForCount((e) => e.type === 'keepalive' && e.connectionId === connection.id, 3)
    const probes = recorder.of('keepalive', connection.id)
    expect(probes.every((p) => p.ok && p.health === 'healthy')).toBe(true)
    expect(probes[0]).toMatchObject({ probe: 'tools/list', note: expect.stringContaining('-32601') })
    expect(probes.slice(1).every((p) => p.probe === 'ping')).toBe(true)
    expect(connection.state).toBe('connected')
  })

  it('joins every page of a paginated list', async () => {
    start()
    const connection = await engine.createConnection(fixtureTarget('paginatedTools'))
    expect(await connection.open()).toBe(true)
    const [tools] = step(connection.id, 'tools/list')
    expect(tools).toMatchObject({ status: 'called', count: 7, pages: 3 })
    expect((tools.items as { name: string }[]).map((t) => t.name)).toEqual([
      'tool_1',
      'tool_2',
      'tool_3',
      'tool_4',
      'tool_5',
      'tool_6',
      'tool_7',
    ])
    const cursors = framesOf(connection.id, 'tools/list')
      .filter((f) => f.direction === 'out')
      .map((f) => (f.payload as { params?: { cursor?: string } }).params?.cursor)
    expect(cursors).toEqual([undefined, '3', '6'])
  })
})

describe('request timeout', () => {
  it('is restarted by each progress notification, so a slow tool that reports progress succeeds', async () => {
    start({ requestTimeoutMs: 300 })
    const connection = await engine.createConnection(fixtureTarget('slowTools', ['progress', 'quick-list']))
    expect(await connection.open()).toBe(true)
    const started = performance.now()
    const answer = await engine.sendTurn(connection.id, { tool: 'slow', arguments: {} })
    expect(answer.state).toBe('completed')
    expect(performance.now() - started).toBeGreaterThan(700)
    expect(framesOf(connection.id, 'notifications/progress').length).toBe(8)
    // The same call asking for no progress (a replayed turn that was fast when recorded) is cut short by the timeout.
    await expect(engine.sendTurn(connection.id, { tool: 'slow', arguments: {} }, { progress: false })).rejects.toThrow(
      /no answer within 300 ms/,
    )
  })

  it('fails a slow list call that reports nothing once the timeout passes, and the connection stays up', async () => {
    start({ requestTimeoutMs: 300 })
    const connection = await engine.createConnection(fixtureTarget('slowTools', ['silent']))
    expect(await connection.open()).toBe(true)
    expect(step(connection.id, 'tools/list')[0]).toMatchObject({ status: 'failed', errorCode: -32001 })
    expect(step(connection.id, 'tools/list')[0].reason).toMatch(/timed out/i)
    expect(connection.state).toBe('connected')
  })
})

describe('list_changed', () => {
  it('refreshes the tool list when a tool server announces a change', async () => {
    start()
    const connection = await engine.createConnection(fixtureTarget('growingTools'))
    expect(await connection.open()).toBe(true)
    expect(step(connection.id, 'tools/list')[0]).toMatchObject({ status: 'called', count: 1 })
    const refreshed = await recorder.waitFor(
      (e): e is DiscoveryEvent => e.type === 'discovery' && e.connectionId === connection.id && e.trigger === 'list_changed',
    )
    expect(refreshed).toMatchObject({ method: 'tools/list', status: 'called', count: 2 })
    const notification = framesOf(connection.id, 'notifications/tools/list_changed')
    expect(notification).toHaveLength(1)
    expect(notification[0]).toMatchObject({ direction: 'in', kind: 'notification' })
    expect(notification[0].seq).toBeLessThan(refreshed.seq)
  })

  it('ignores list_changed from a server that never advertised the capability, and flags it', async () => {
    start()
    const connection = await engine.createConnection(fixtureTarget('unadvertisedListChanged'))
    expect(await connection.open()).toBe(true)
    const ignored = await recorder.waitFor(
      (e): e is DiscoveryEvent => e.type === 'discovery' && e.connectionId === connection.id && e.trigger === 'list_changed',
    )
    expect(ignored).toMatchObject({ method: 'tools/list', status: 'skipped', oddity: true })
    expect(ignored.reason).toMatch(/ignored notifications\/tools\/list_changed.*never advertised the "tools" capability/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(framesOf(connection.id, 'tools/list').filter((f: FrameEvent) => f.direction === 'out')).toHaveLength(0)
  })
})
