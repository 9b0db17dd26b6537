import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_SPANS_PER_LANE, type EngineEvent } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { BLOCK, spanReads } from '../../shared/runtime/store/spanLanes'
import { approveAll } from '../fixtures/targets'

// A session of a million events on the time axis: written through the engine's session store as a connection
// would write it (requests, answers, some failing, notifications), then asked for at the widest zoom and at a
// narrow one. What each answer costs is counted in reads of the span index, and it does not grow with the session.

const dataDir = mkdtempSync(join(tmpdir(), 'parallax-time-axis-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/**
 * Writes `count` events of one connection: a request, its answer 2–40 ms later (every 50th fails), and a
 * notification after some; and one long request, asked first and answered last.
 */
function writeSession(
  engine: Engine,
  connectionId: string,
  count: number,
  start: number,
): { end: number; requests: number; failed: number } {
  const store = engine.events.store
  let seq = 0
  let ts = start
  let requests = 0
  let failed = 0
  const base = { connectionId, protocol: 'mcp' as const, transport: 'stdio' as const, bytes: 60 }
  const long = { ...base, type: 'frame' as const, method: 'tools/call', subject: 'long_report', id: 'long', payload: {} }
  store.append({ ...long, seq: ++seq, ts, direction: 'out', kind: 'request' })
  requests++
  while (seq < count - 1) {
    ts += 1
    const request: EngineEvent = {
      ...base,
      type: 'frame',
      seq: ++seq,
      ts,
      direction: 'out',
      kind: 'request',
      method: 'tools/call',
      subject: seq % 3 ? 'get_products' : 'get_product',
      id: seq,
      payload: { jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name: 'get_products' } },
    }
    store.append(request)
    const latency = 2 + (seq % 39)
    const failing = ++requests % 50 === 1
    if (failing) failed++
    store.append({
      ...base,
      type: 'frame',
      seq: ++seq,
      ts: ts + latency,
      direction: 'in',
      kind: failing ? 'error' : 'response',
      method: 'tools/call',
      subject: request.subject,
      id: request.id,
      requestSeq: request.seq,
      latencyMs: latency,
      payload: failing
        ? { jsonrpc: '2.0', id: request.id, error: { code: -32000, message: 'no' } }
        : { jsonrpc: '2.0', id: request.id, result: {} },
    })
    ts += latency
    if (seq % 5 < 2)
      store.append({
        ...base,
        type: 'frame',
        seq: ++seq,
        ts,
        direction: 'in',
        kind: 'notification',
        method: 'notifications/message',
        payload: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      })
  }
  store.append({ ...long, seq: seq + 1, ts: ++ts, direction: 'in', kind: 'response', requestSeq: 1 })
  return { end: ts, requests, failed }
}

async function cost<T>(run: () => Promise<T>): Promise<{ value: T; reads: number; records: number }> {
  const before = { ...spanReads }
  const value = await run()
  return { value, reads: spanReads.reads - before.reads, records: spanReads.records - before.records }
}

describe('the time axis at a million events', () => {
  it('the widest zoom answers with density and a narrow zoom with spans, each reading a bounded part of the index', async () => {
    const engine = new Engine({ host: 'web', dataDir, builtIns: builtInDemos(), approver: approveAll })
    try {
      const start = 1_700_000_000_000
      const big = writeSession(engine, 'big', 1_000_000, start)
      const bins = 1_000

      const wide = await cost(() => engine.invoke('timeline.view', { connectionId: 'big', bins }))
      const view = wide.value
      expect(view.extent).toEqual({ start, end: big.end })
      const requests = view.lanes.find((l) => l.id === 'requests')!
      expect(requests.spans).toBeUndefined()
      expect(requests.density!.counts).toHaveLength(bins)
      // Every request is counted once, every 50th failed, and the errors lane holds each failure.
      const answered = requests.density!.counts.reduce((a, b) => a + b, 0)
      expect(requests.total).toBe(answered)
      expect(answered).toBe(big.requests)
      expect(requests.density!.errors.reduce((a, b) => a + b, 0)).toBe(big.failed)
      const errors = view.lanes.find((l) => l.id === 'errors')!
      expect(errors.total).toBe(big.failed)
      expect(view.lanes.map((l) => l.id)).toEqual(['requests', 'notifications', 'errors'])

      // A view of the whole session reads a group's block summaries and a block per bin edge and lane at most, whatever its length.
      const lanes = view.lanes.length
      expect(wide.reads).toBeLessThanOrEqual((bins + 2) * lanes * 2)
      expect(wide.records).toBeLessThanOrEqual((bins + 2) * lanes * BLOCK)
      expect(wide.records).toBeLessThan(answered / 2)

      // Zoomed in on a few hundred milliseconds in the middle: the spans themselves, and only what is near them read.
      const middle = (start + big.end) / 2
      const narrow = await cost(() => engine.invoke('timeline.view', { connectionId: 'big', from: middle, to: middle + 300, bins }))
      const near = narrow.value
      const spans = [...near.lanes.find((l) => l.id === 'requests')!.spans!]
      // The long request runs across the whole range: it is there, from the session's first event to its last.
      expect(spans[0]).toMatchObject({ label: 'tools/call long_report', start, end: big.end, seq: 1, outcome: 'ok' })
      spans.shift()
      expect(spans.length).toBeGreaterThan(5)
      expect(spans.length).toBeLessThan(MAX_SPANS_PER_LANE)
      for (const span of spans) {
        expect(span.end! >= middle && span.start <= middle + 300).toBe(true)
        expect(span.label).toMatch(/^tools\/call (get_products|get_product)$/)
        expect(span.endSeq).toBe(span.seq + 1)
        expect(span.end! - span.start).toBeGreaterThanOrEqual(2)
      }
      expect(narrow.records).toBeLessThan(2_000)

      // Latency per tool over the whole session, from a bounded sample of the index.
      const latency = await cost(() => engine.invoke('timeline.latency', { connectionId: 'big' }))
      const { rows } = latency.value
      const search = rows.find((r) => r.subject === 'get_products')!
      expect(search.method).toBe('tools/call')
      expect(search.p50).toBeGreaterThan(10)
      expect(search.p95).toBeGreaterThan(search.p50)
      expect(search.max).toBeLessThanOrEqual(40)
      expect(search.max).toBeGreaterThan(30)
      expect(search.histogram.counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(1_000)
      expect(latency.records).toBeLessThan(25_000)

      // The app closes: the session, read back as a past one, answers the same from its span index as it lies.
      const sessionId = engine.events.store.sessionOf('big')!
      await engine.dispose()
      const again = new Engine({ host: 'web', dataDir, builtIns: builtInDemos(), approver: approveAll })
      try {
        const pastWide = await cost(() => again.invoke('timeline.view', { connectionId: `session:${sessionId}`, bins }))
        expect(pastWide.value).toEqual(view)
        expect(pastWide.reads).toBeLessThanOrEqual((bins + 2) * lanes * 2 + big.requests / (BLOCK * 64) + 100)
        const pastNarrow = await cost(() =>
          again.invoke('timeline.view', { connectionId: `session:${sessionId}`, from: middle, to: middle + 300, bins }),
        )
        expect(pastNarrow.value).toEqual(near)
        expect(pastNarrow.records).toBeLessThan(2_000)
      } finally {
        await again.dispose()
      }
    } finally {
      await engine.dispose()
    }
  }, 240_000)
})
