import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import type { EngineEvent } from '../../shared/contract'
import { EventBatcher } from '../../shared/runtime/batcher'
import { parseTargetsConfig } from '../../shared/engine/configFile'
import { EventLog } from '../../shared/runtime/eventLog'
import { JsonRpcTap, type TappedFrame } from '../../shared/runtime/jsonRpcTap'
import { backoffDelay } from '../../shared/runtime/supervisedConnection'
import { PARALLAX_VERSION } from '../../shared/version'

describe('EventLog', () => {
  it('stamps monotonic seq and returns exactly the events after a given seq', () => {
    const log = new EventLog()
    for (let i = 0; i < 10; i++) log.emit({ type: 'log', connectionId: 'c', source: 'engine', level: 'info', text: String(i) })
    expect(log.since(0).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(log.since(7).map((e) => e.seq)).toEqual([8, 9, 10])
    expect(log.since(10)).toEqual([])
    expect(log.lastSeq).toBe(10)
  })

  it('keeps delivering to other listeners when one throws', () => {
    const log = new EventLog()
    const seen: number[] = []
    log.subscribe(() => {
      throw new Error('faulty subscriber')
    })
    log.subscribe((e) => seen.push(e.seq))
    log.emit({ type: 'log', connectionId: 'c', source: 'engine', level: 'info', text: 'x' })
    expect(seen).toEqual([1])
  })
})

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

describe('backoffDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    const options = { reconnectBaseDelayMs: 500, reconnectMaxDelayMs: 8000 }
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, options))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000])
  })
})

describe('EventBatcher', () => {
  it('delivers a burst as one batch, and flushes at once when the batch is full', () => {
    vi.useFakeTimers()
    try {
      const batches: EngineEvent[][] = []
      const batcher = new EventBatcher((events) => batches.push(events), 16, 3)
      const event = (seq: number) =>
        ({ seq, ts: 0, connectionId: 'c', type: 'log', source: 'engine', level: 'info', text: '' }) as EngineEvent
      batcher.push(event(1))
      batcher.push(event(2))
      expect(batches).toHaveLength(0)
      vi.advanceTimersByTime(16)
      expect(batches.map((b) => b.map((e) => e.seq))).toEqual([[1, 2]])
      batcher.push(event(3))
      batcher.push(event(4))
      batcher.push(event(5))
      expect(batches.map((b) => b.map((e) => e.seq))).toEqual([
        [1, 2],
        [3, 4, 5],
      ])
      batcher.dispose()
    } finally {
      vi.useRealTimers()
    }
  })
})

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

it('keeps PARALLAX_VERSION equal to package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  expect(PARALLAX_VERSION).toBe(pkg.version)
})
