import { describe, expect, it } from 'vitest'
import { cardUrlFor, checkCard, detectGeneration, listInterfaces } from '../../shared/a2a/agentCard'
import { chooseInterface } from '../../shared/a2a/interfaceChoice'

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
