import { Client as ModernClient } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { describe, expect, it } from 'vitest'
import { SERVER_REQUEST_METHODS } from '../../shared/contract'
import { ClientRole, SERVER_REQUESTS } from '../../shared/mcp/clientRole'
import { offeredCapabilities } from '../../shared/mcp/clientTasks'

const INFO = { name: 'parallax-test', version: '0' }
const CAPABILITIES = ['sampling', 'elicitation', 'roots'] as const

/** Every combination of the capabilities that gate a server's requests, from none to all. */
const SUBSETS = Array.from({ length: 2 ** CAPABILITIES.length }, (_, bits) => CAPABILITIES.filter((_, i) => bits & (1 << i)))

/** The methods a client's handlers answer (both SDKs keep them in one map by method). */
function handled(client: Client | ModernClient): string[] {
  return [...(client as unknown as { _requestHandlers: Map<string, unknown> })._requestHandlers.keys()]
}

/** What `install` made the client answer, beyond what the client answers by itself (ping). */
function installed(client: Client | ModernClient, install: () => void): string[] {
  const before = new Set(handled(client))
  install()
  return handled(client)
    .filter((method) => !before.has(method))
    .sort()
}

function role(): ClientRole {
  return new ClientRole(
    {},
    () => {},
    () => undefined,
    () => {},
  )
}

/** Both eras' clients, told to answer what `capabilities` lets a server ask, as a connection makes them. */
function bothEras(capabilities: Record<string, unknown>): { '2025': string[]; '2026': string[] } {
  const legacyOffer = offeredCapabilities(capabilities, '2025')
  const modernOffer = offeredCapabilities(capabilities, '2026')
  const legacy = new Client(INFO, { capabilities: legacyOffer })
  const modern = new ModernClient(INFO, { capabilities: modernOffer })
  const legacyRole = role()
  const modernRole = role()
  try {
    return {
      '2025': installed(legacy, () => legacyRole.install(legacy, legacyOffer)),
      '2026': installed(modern, () => modernRole.installModern(modern, modernOffer)),
    }
  } finally {
    legacyRole.close('done')
    modernRole.close('done')
  }
}

describe('the table of requests a server may send its client', () => {
  it('has a row for each method the contract names, each with the 1.x schema of that very method', () => {
    expect(Object.keys(SERVER_REQUESTS).sort()).toEqual([...SERVER_REQUEST_METHODS].sort())
    for (const [method, row] of Object.entries(SERVER_REQUESTS)) expect(row.schema.shape.method.value).toBe(method)
  })

  it.each(SUBSETS.map((subset) => [subset.join(', ') || 'nothing', subset] as const))(
    'offering %s, both eras answer exactly the table’s methods for it, on the real SDK clients',
    (_, subset) => {
      const capabilities = Object.fromEntries(subset.map((capability) => [capability, {}]))
      const expected = Object.entries(SERVER_REQUESTS)
        .filter(([, row]) => (subset as readonly string[]).includes(row.capability))
        .map(([method]) => method)
        .sort()
      const answered = bothEras(capabilities)
      expect(answered['2025']).toEqual(expected)
      expect(answered['2026']).toEqual(expected)
    },
  )

  it('answers client tasks in the 2025 era alone: the 2026 era has none, and does not offer them', () => {
    const capabilities = {
      sampling: {},
      elicitation: {},
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
    }
    expect(offeredCapabilities(capabilities, '2026')).not.toHaveProperty('tasks')
    const answered = bothEras(capabilities)
    const table = ['elicitation/create', 'sampling/createMessage']
    expect(answered['2026']).toEqual(table)
    expect(answered['2025']).toEqual([...table, 'tasks/cancel', 'tasks/get', 'tasks/list', 'tasks/result'].sort())
  })

  it('names the capability a server needed for a request the profile did not offer', () => {
    for (const [method, row] of Object.entries(SERVER_REQUESTS)) {
      expect(ClientRole.unoffered(method, {})).toBe(row.capability)
      expect(ClientRole.unoffered(method, { [row.capability]: {} })).toBeUndefined()
    }
    expect(ClientRole.unoffered('tools/list', {})).toBeUndefined()
  })
})
