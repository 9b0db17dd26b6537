import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { DISCOVERY_STEPS, runDiscoveryStep } from '../../shared/mcp/discovery'
import { LegacySession } from '../../shared/mcp/session'

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
