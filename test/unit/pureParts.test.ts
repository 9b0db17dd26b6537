import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { cardUrlFor, checkCard, detectGeneration, listInterfaces } from '../../shared/a2a/agentCard'
import { chooseInterface } from '../../shared/a2a/interfaceChoice'
import { schemaChanges } from '../../shared/compare/schemaChanges'
import { DISCOVERY_STEPS, runDiscoveryStep } from '../../shared/mcp/discovery'
import { LegacySession } from '../../shared/mcp/session'

describe('schema changes are classified as a caller sees them', () => {
  const before = {
    type: 'object',
    properties: { sku: { type: 'string' }, mode: { enum: ['a', 'b'] }, qty: { type: ['integer', 'string'] } },
    required: ['sku'],
  }

  it('input: a new required field, a removed field, a narrowed type or enum break; a new optional field does not', () => {
    const after = {
      type: 'object',
      properties: {
        sku: { type: 'string' },
        mode: { enum: ['a'] },
        qty: { type: 'integer' },
        note: { type: 'string' },
        currency: { type: 'string' },
      },
      required: ['sku', 'currency'],
    }
    const changes = schemaChanges(before, after, 'input')
    const byPath = Object.fromEntries(changes.map((c) => [`${c.path} ${c.kind}`, c.breaking]))
    expect(byPath).toEqual({
      '/note property-added': false,
      '/currency required-added': true,
      '/mode enum-narrowed': true,
      '/qty type-narrowed': true,
    })
    expect(
      schemaChanges(before, { ...before, properties: { mode: before.properties.mode } }, 'input')
        .filter((c) => c.kind === 'property-removed')
        .map((c) => c.path),
    ).toEqual(['/sku', '/qty'])
  })

  it('input: an optional field that became required breaks; a required one that became optional does not; a wider type does not', () => {
    const after = { ...before, properties: { ...before.properties, qty: { type: ['integer', 'string', 'null'] } }, required: ['mode'] }
    const changes = schemaChanges(before, after, 'input')
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/mode', kind: 'required-added', breaking: true }),
        expect.objectContaining({ path: '/sku', kind: 'required-removed', breaking: false }),
        expect.objectContaining({ path: '/qty', kind: 'type-widened', breaking: false }),
      ]),
    )
  })

  it('output: the caller reads the result, so a removed field or a wider enum breaks and a new field does not', () => {
    const out = { type: 'object', properties: { id: { type: 'string' }, state: { enum: ['ok'] } } }
    const changes = schemaChanges(
      out,
      { type: 'object', properties: { state: { enum: ['ok', 'pending'] }, extra: { type: 'number' } } },
      'output',
    )
    expect(changes.map((c) => [c.path, c.kind, c.breaking])).toEqual(
      expect.arrayContaining([
        ['/extra', 'property-added', false],
        ['/id', 'property-removed', true],
        ['/state', 'enum-widened', true],
      ]),
    )
  })

  it('walks array items and nested objects, and an identical schema has no changes', () => {
    const nested = {
      type: 'object',
      properties: { lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } } },
    }
    expect(schemaChanges(nested, nested, 'input')).toEqual([])
    const narrowed = {
      type: 'object',
      properties: {
        lines: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } }, required: ['sku', 'qty'] },
        },
      },
    }
    expect(schemaChanges(nested, narrowed, 'input')).toEqual([
      expect.objectContaining({ path: '/lines/items/qty', kind: 'required-added', breaking: true }),
    ])
  })
})

describe('agent cards are checked as a careful client would', () => {
  const v1 = {
    name: 'Agent',
    description: 'd',
    version: '1',
    capabilities: {},
    skills: [{ id: 's', name: 'S', description: 'x', tags: [] }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  }

  it('finds the card of a base URL or takes a card URL as it is', () => {
    expect(cardUrlFor('http://h:1/agent/')).toBe('http://h:1/agent/.well-known/agent-card.json')
    expect(cardUrlFor('http://h:1/cards/a.json')).toBe('http://h:1/cards/a.json')
  })

  it('detects the generation, and a v0.3 card claiming v1.0 is flagged', () => {
    expect(detectGeneration(v1)).toMatchObject({ generation: '1.0' })
    const v03 = { ...v1, supportedInterfaces: undefined, url: 'http://127.0.0.1:1/', preferredTransport: 'JSONRPC', protocolVersion: '1.0' }
    expect(detectGeneration(v03)).toMatchObject({ generation: '0.3', reason: expect.stringMatching(/top-level url/) })
    expect(checkCard(v03, '0.3', 'http://127.0.0.1:1/.well-known/agent-card.json')).toContain(
      'the card claims protocolVersion 1.0 but has the v0.3 shape (top-level url, no supportedInterfaces)',
    )
    expect(listInterfaces(v03, '0.3')).toEqual([{ url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }])
  })

  it('a good card has no warnings; each problem is one readable sentence', () => {
    expect(checkCard(v1, '1.0', 'http://127.0.0.1:1/.well-known/agent-card.json')).toEqual([])
    const bad = {
      ...v1,
      name: '',
      skills: [v1.skills[0], { id: 's', name: 'again' }],
      supportedInterfaces: [{ url: 'http://elsewhere:2/a2a', protocolBinding: 'SOAP', protocolVersion: '1.0' }],
      securityRequirements: [{ schemes: { oauth: [] } }],
    }
    expect(checkCard(bad, '1.0', 'http://127.0.0.1:1/.well-known/agent-card.json')).toEqual([
      'required field "name" is not a string',
      'interface 1 (SOAP) points to http://elsewhere:2, not where the card was fetched (http://127.0.0.1:1)',
      'interface 1 (SOAP) has an unknown protocolBinding "SOAP"',
      'skills[1] has no description',
      'skills[1] has no tags array',
      'skill id "s" appears more than once',
      'security requirement names "oauth", which securitySchemes does not define',
    ])
    expect(checkCard([], '1.0', 'http://x/')).toEqual(['the agent card is not a JSON object'])
  })

  it('chooses the interface: the preferred binding, v1.0 first, an allowed origin first; names what it chose', () => {
    const interfaces = [
      { url: 'http://other:9/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'http://home:1/rpc03', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
      { url: 'http://home:1/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'http://home:1/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ]
    const home = (origin: string) => origin === 'http://home:1'
    const chosen = chooseInterface(interfaces, 'auto', home)
    expect(chosen.chosen.url).toBe('http://home:1/rpc')
    expect(chosen.foreignOrigin).toBeUndefined()
    expect(chooseInterface(interfaces, 'HTTP+JSON', home).chosen.url).toBe('http://home:1/rest')
    expect(chooseInterface(interfaces.slice(0, 1), 'auto', home)).toMatchObject({ foreignOrigin: 'http://other:9' })
    // gRPC: `host:port` as the SDK's samples write it, or a URL; its own port is its own origin.
    const grpc = [
      { url: 'home:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
      { url: 'https://grpc.example.com', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
    ]
    expect(chooseInterface([...interfaces, ...grpc], 'GRPC', home)).toMatchObject({
      chosen: { url: 'home:50051' },
      foreignOrigin: 'http://home:50051',
      reason: expect.stringMatching(/^GRPC 1\.0 at home:50051: because this target prefers GRPC/),
    })
    expect(chooseInterface(grpc.slice(1), 'auto', home)).toMatchObject({ foreignOrigin: 'https://grpc.example.com' })
    expect(() => chooseInterface([{ url: 'x', protocolBinding: 'SOAP', protocolVersion: '1.0', tenant: '' }], 'auto', home)).toThrow(
      /no interface Parallax can use \(offered: SOAP; usable: JSONRPC, HTTP\+JSON, GRPC\)/,
    )
  })
})

describe('discovery is gated by what the server advertised', () => {
  /** A client that answers every list with one item, or with the given error, and counts its calls. */
  function client(answer: (method: string) => unknown): { client: LegacySession; calls: string[] } {
    const calls: string[] = []
    const sdkClient = {
      request: async ({ method }: { method: string }) => {
        calls.push(method)
        const result = answer(method)
        if (result instanceof Error) throw result
        return result
      },
    } as unknown as Client
    return { calls, client: new LegacySession(sdkClient, undefined) }
  }
  const tools = DISCOVERY_STEPS.find((s) => s.method === 'tools/list')!

  it('skips a list the server did not advertise, with the reason, and sends nothing', async () => {
    const { client: c, calls } = client(() => ({ tools: [] }))
    expect(await runDiscoveryStep(c, tools, { prompts: {} }, 'initial', {})).toMatchObject({
      status: 'skipped',
      reason: 'server did not advertise the "tools" capability',
    })
    expect(calls).toEqual([])
  })

  it('calls an advertised list, following every page', async () => {
    let page = 0
    const { client: c, calls } = client(() =>
      ++page < 3 ? { tools: [{ name: `t${page}` }], nextCursor: `c${page}` } : { tools: [{ name: 't3' }] },
    )
    expect(await runDiscoveryStep(c, tools, { tools: {} }, 'initial', {})).toMatchObject({ status: 'called', count: 3, pages: 3 })
    expect(calls).toEqual(['tools/list', 'tools/list', 'tools/list'])
  })

  it('-32601 on an advertised list is a failed step with its reason, not an exception; a repeated cursor stops', async () => {
    const { client: missing } = client(() => new McpError(ErrorCode.MethodNotFound, 'Method not found'))
    expect(await runDiscoveryStep(missing, tools, { tools: {} }, 'list_changed', {})).toMatchObject({
      status: 'failed',
      errorCode: -32601,
      trigger: 'list_changed',
      reason: 'server advertises "tools" but answered -32601 Method not found',
    })
    const { client: looping } = client(() => ({ tools: [], nextCursor: 'same' }))
    expect(await runDiscoveryStep(looping, tools, { tools: {} }, 'initial', {})).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/repeated pagination cursor "same"/),
    })
  })
})
