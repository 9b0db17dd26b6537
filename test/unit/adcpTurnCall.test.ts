import { describe, expect, it } from 'vitest'
import { turnCall } from '../../shared/adcp/adcpCall'
import { DEFAULT_MAPPING } from '../../shared/contract'

describe('the AdCP task a conversation turn calls', () => {
  it('an MCP tool call, an A2A {skill, input}, and the {skill, parameters} of AdCP’s older clients; text calls none', () => {
    const brief = { buying_mode: 'brief', brief: 'sports' }
    expect(turnCall({ tool: 'get_products', arguments: brief }, DEFAULT_MAPPING)).toEqual({ task: 'get_products', args: brief })
    expect(turnCall({ data: { skill: 'get_products', input: brief } }, DEFAULT_MAPPING)).toEqual({ task: 'get_products', args: brief })
    expect(turnCall({ data: { skill: 'get_products', parameters: brief } }, DEFAULT_MAPPING)).toEqual({ task: 'get_products', args: brief })
    expect(turnCall({ data: { skill: 'list_creative_formats' } }, DEFAULT_MAPPING)).toEqual({ task: 'list_creative_formats', args: {} })
    expect(turnCall({ text: 'search sports video' }, DEFAULT_MAPPING)).toBeUndefined()
  })
})
