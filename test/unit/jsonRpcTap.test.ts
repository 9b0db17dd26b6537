import { describe, expect, it } from 'vitest'
import { JsonRpcTap, type TappedFrame } from '../../shared/runtime/jsonRpcTap'

describe('JsonRpcTap', () => {
  it('classifies frames and pairs each response with its request for latency and method', () => {
    const frames: TappedFrame[] = []
    const tap = new JsonRpcTap('mcp', 'stdio', (f) => frames.push(f))
    tap.record('out', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
    tap.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: {} })
    tap.record('in', { jsonrpc: '2.0', id: 7, method: 'roots/list' }) // a request from the server
    tap.record('out', { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'nope' } })
    tap.record('in', { jsonrpc: '2.0', id: 1, result: { tools: [] } })
    tap.record('in', { jsonrpc: '2.0', id: 99, result: {} }) // unknown id: no pairing
    expect(frames.map((f) => [f.direction, f.kind, f.method, f.id])).toEqual([
      ['out', 'request', 'tools/list', 1],
      ['in', 'notification', 'notifications/message', undefined],
      ['in', 'request', 'roots/list', 7],
      ['out', 'error', 'roots/list', 7],
      ['in', 'response', 'tools/list', 1],
      ['in', 'response', undefined, 99],
    ])
    expect(frames[4].latencyMs).toBeGreaterThanOrEqual(0)
    expect(frames[3].latencyMs).toBeGreaterThanOrEqual(0)
    expect(frames[5].latencyMs).toBeUndefined()
    expect(frames[0].bytes).toBe(Buffer.byteLength(JSON.stringify(frames[0].payload)))
  })
})
