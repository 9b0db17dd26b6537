import { builtInDemos } from '../../shared/demo/builtIns'
import { afterEach, describe, expect, it } from 'vitest'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

let engine: Engine
afterEach(async () => {
  await engine?.dispose()
})

describe('capability hints and compare', () => {
  it('the demo honours the tool-category hint: hinted vs minimal differ by exactly the hinted tools', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const result = await engine.execute('compare.run', {
      a: { targetId: 'demo:tools', profile: 'minimal' },
      b: { targetId: 'demo:tools', profile: 'hinted' },
    })
    const { a, b, handshake, catalog } = result as Awaited<ReturnType<Engine['compare']>>
    expect(catalog.added.map((x) => x.name).sort()).toEqual(['forecast_delivery', 'preview_creative'])
    expect(catalog.removed).toEqual([])
    expect(catalog.changed).toEqual([])
    expect(handshake.map((h) => [h.origin, h.field])).toEqual([['client', 'clientCapabilities.experimental']])
    // Each difference points at the frame that showed it, in the connection that showed it.
    const frame = recorder.events.find((e) => e.seq === catalog.added[0].frames.b)!
    expect(frame).toMatchObject({ type: 'frame', direction: 'in', method: 'tools/list', connectionId: b.connectionId })
    const offered = recorder.events.find(
      (e) => e.type === 'frame' && e.connectionId === b.connectionId && e.method === 'initialize' && e.direction === 'out',
    )!
    expect(JSON.stringify((offered as { payload: unknown }).payload)).toContain('io.parallax/tool-categories')
    expect(a.profile).toBe('minimal')
  })

  it('classifies a new version of a tool server: new required field and narrowed enum are breaking, a new optional field is not', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const { catalog, handshake } = await engine.compare(
      { target: fixtureTarget('versionedTools', ['v1']) },
      { target: { ...fixtureTarget('versionedTools', ['v2']), id: 'fixture:v2' } },
    )
    expect(catalog.added.map((x) => x.name)).toEqual(['track_order'])
    expect(catalog.removed.map((x) => x.name)).toEqual(['cancel_order'])
    const [order] = catalog.changed
    expect(order).toMatchObject({ kind: 'tool', name: 'create_order', breaking: true })
    expect(order.changes.map((c) => [c.path, c.kind, c.breaking])).toEqual([
      ['/inputSchema/currency', 'required-added', true],
      ['/inputSchema/note', 'property-added', false],
      ['/inputSchema/priority', 'enum-narrowed', true],
    ])
    expect(handshake.map((h) => h.field)).toEqual(['serverInfo.version'])
  })

  it('refuses an invalid profile before anything is sent', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll })
    const recorder = new EventRecorder(engine)
    await expect(
      engine.execute('compare.run', {
        a: { targetId: 'demo:tools' },
        b: { targetId: 'demo:tools', profile: { name: 'bad', mcp: { protocolVersion: 'latest', capabilities: { telepathy: {} } } } },
      }),
    ).rejects.toThrow(
      /not a valid client profile: mcp.protocolVersion: an MCP protocol version looks like 2025-06-18; mcp.capabilities: Unrecognized key: "telepathy"/,
    )
    expect(recorder.events).toHaveLength(0)
    await expect(engine.execute('profiles.save', { profile: { name: 'minimal' } })).rejects.toThrow(/is a preset/)
  })

  it('asks for the protocol version a profile names, and shows asked vs negotiated', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const target = (await engine.targets.get('demo:prompts'))!
    const connection = await engine.createConnection(target, {
      name: 'old',
      mcp: { protocolVersion: '2025-03-26', capabilities: {} },
      a2a: { extensions: [], headers: {}, metadata: {} },
    })
    expect(await connection.open()).toBe(true)
    expect(recorder.of('handshake', connection.id)[0]).toMatchObject({
      requestedProtocolVersion: '2025-03-26',
      protocolVersion: '2025-03-26',
    })
  })

  it('activates a profile’s A2A extensions through the A2A-Extensions header and message metadata', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const recorder = new EventRecorder(engine)
    const target = (await engine.targets.get('demo:a2a'))!
    const profile = {
      name: 'ext',
      mcp: { capabilities: {} },
      a2a: { extensions: ['https://example.com/ext/tool-categories/v1'], headers: {}, metadata: { 'tool-categories': ['forecasting'] } },
    }
    const connection = await engine.createConnection(target, profile)
    expect(await connection.open()).toBe(true)
    await engine.sendTurn(connection.id, { text: 'formats' })
    const sent = recorder.of('frame', connection.id).find((f) => f.method === 'SendMessage' && f.direction === 'out')!
    expect(sent.http?.headers?.['a2a-extensions']).toBe('https://example.com/ext/tool-categories/v1')
    expect(JSON.stringify(sent.payload)).toContain('"tool-categories":["forecasting"]')
  })
})

describe('compare across protocols speaks one vocabulary', () => {
  it('pairs MCP tools with A2A skills by name: the demo is the same over both, but for the delivery MCP lists only after a buy', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const result = await engine.invoke('compare.run', { a: { targetId: 'demo:tools' }, b: { targetId: 'demo:a2a' } })
    const { same, added, removed, changed } = result.catalog
    expect(same.map((x) => `${x.kind}:${x.name}`).sort()).toEqual([
      'operation:create_media_buy',
      'operation:get_adcp_capabilities',
      'operation:get_media_buys',
      'operation:get_products',
      'operation:list_creative_formats',
    ])
    expect(added.map((x) => `${x.kind}:${x.name}`)).toEqual(['operation:get_media_buy_delivery'])
    expect(removed).toEqual([])
    expect(changed).toEqual([])
    expect(added[0].frames.b).toBeGreaterThan(0) // linked to the card that showed it
  })

  it('pairs under renames when a tool and its skill are named differently', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    const result = await engine.invoke('compare.run', {
      a: { targetId: 'demo:tools' },
      b: { targetId: 'demo:a2a' },
      operations: { get_media_buys: 'get_media_buy_delivery' },
    })
    expect(result.catalog.same.map((x) => x.name)).toContain('get_media_buy_delivery')
    expect(result.catalog.added.map((x) => x.name)).toEqual(['get_media_buys'])
  })
})
