import { describe, expect, it } from 'vitest'
import { parseTargetsConfig } from '../../shared/engine/configFile'

describe('parseTargetsConfig', () => {
  it('maps stdio and HTTP entries and reports each unusable one by name', () => {
    const { drafts, errors } = parseTargetsConfig(
      JSON.stringify({
        mcpServers: {
          a: { command: 'node', args: ['server.js'] },
          b: { url: 'http://127.0.0.1:1/mcp', type: 'http' },
          c: { url: 'not a url' },
          d: 'nonsense',
        },
      }),
    )
    expect(drafts.map((d) => [d.name, d.spec.kind])).toEqual([
      ['a', 'mcp-stdio'],
      ['b', 'mcp-http'],
    ])
    expect(drafts[1].spec).toMatchObject({ transport: 'streamable-http' })
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/^mcpServers\.c: spec\.url/)
    expect(errors[1]).toMatch(/^mcpServers\.d: needs either "command"/)
    expect(parseTargetsConfig('{}').errors).toEqual(['config has no "mcpServers" (or "a2aAgents", or "acpAgents") object'])
    const a2a = parseTargetsConfig(
      JSON.stringify({ a2aAgents: { sales: { url: 'http://127.0.0.1:4000', headers: { Authorization: 'x' } }, bad: {} } }),
    )
    expect(a2a.drafts.map((d) => [d.name, d.spec.kind])).toEqual([['sales', 'a2a']])
    expect(a2a.errors[0]).toMatch(/^a2aAgents\.bad: spec\.url/)
  })
})
