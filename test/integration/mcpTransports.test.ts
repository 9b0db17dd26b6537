import { builtInDemos } from '../../shared/demo/builtIns'
import { afterEach, describe, expect, it } from 'vitest'
import type { LogEvent } from '../../shared/contract'
import { createToolServer } from '../../shared/demo/mcpServers'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startSseServer, startStreamableServer, type RunningServer } from '../../shared/demo/httpServers'
import { approveAll, httpTarget } from '../fixtures/targets'

let engine: Engine
let recorder: EventRecorder
let server: RunningServer | undefined

function start() {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 200 } })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
  await server?.close()
  server = undefined
})

describe('HTTP transports', () => {
  it('connects over streamable HTTP and taps every frame with paired latencies', async () => {
    server = await startStreamableServer(createToolServer)
    start()
    const connection = await engine.createConnection(httpTarget(server.url))
    expect(await connection.open()).toBe(true)
    expect(connection.transport).toBe('streamable-http')
    await recorder.waitForCount((e) => e.type === 'keepalive' && e.ok, 2)

    const frames = recorder.of('frame', connection.id)
    expect(frames.every((f) => f.transport === 'streamable-http' && f.protocol === 'mcp' && f.bytes > 0)).toBe(true)
    const responses = frames.filter((f) => f.direction === 'in' && f.kind === 'response')
    expect(responses.map((f) => f.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list']))
    for (const response of responses) {
      const request = frames.find((f) => f.direction === 'out' && f.kind === 'request' && f.id === response.id)!
      expect(request.method).toBe(response.method)
      expect(response.latencyMs).toBeGreaterThan(0)
      expect(response.latencyMs).toBeCloseTo(response.ts - request.ts, 5)
    }
    expect(recorder.of('keepalive', connection.id)[0].probe).toBe('tools/list')
  })

  it('falls back to legacy SSE when the server answers the initialize POST with a 4xx', async () => {
    server = await startSseServer(createToolServer)
    start()
    const connection = await engine.createConnection(httpTarget(server.url))
    expect(await connection.open()).toBe(true)
    expect(connection.transport).toBe('sse')
    const fallback = recorder.of('log', connection.id).find((l: LogEvent) => l.text.includes('falling back to legacy SSE'))
    expect(fallback?.text).toMatch(/HTTP 405/)
    const handshake = recorder.of('handshake', connection.id)
    expect(handshake.at(-1)?.transport).toBe('sse')
    // The failed streamable attempt's initialize is on record too, then the SSE one.
    const initializes = recorder.of('frame', connection.id).filter((f) => f.method === 'initialize' && f.direction === 'out')
    expect(initializes.map((f) => f.transport)).toEqual(['streamable-http', 'sse'])
    await recorder.waitFor((e) => e.type === 'keepalive' && e.connectionId === connection.id && e.ok)
  })

  it('reports an unreachable URL as a failed connection with the reason', async () => {
    start()
    const connection = await engine.createConnection(httpTarget('http://127.0.0.1:9/mcp', 'streamable-http'))
    expect(await connection.open()).toBe(false)
    const failed = recorder.of('connection', connection.id).at(-1)!
    expect(failed.state).toBe('failed')
    // Port 9 is one fetch refuses before connecting: the reason names that and where, not only "fetch failed".
    expect(failed.reason).toContain(
      'refused by fetch before connecting: port 9 is a "bad port" (one kept for another protocol) at 127.0.0.1:9',
    )
    expect(failed.cause).toMatchObject({ address: '127.0.0.1:9', error: 'fetch failed: bad port' })
  })

  it('moves a remote server that stops answering from healthy to degraded to down, then gives up after bounded reconnects', async () => {
    server = await startStreamableServer(createToolServer)
    const url = server.url
    engine = new Engine({
      host: 'cli',
      builtIns: builtInDemos(),
      approver: approveAll,
      defaults: { keepaliveIntervalMs: 150, requestTimeoutMs: 300, reconnectBaseDelayMs: 100, reconnectAttempts: 3 },
    })
    recorder = new EventRecorder(engine)
    const connection = await engine.createConnection(httpTarget(url, 'streamable-http'))
    expect(await connection.open()).toBe(true)
    await recorder.waitFor((e) => e.type === 'keepalive' && e.ok)
    await server.close()
    server = undefined
    await recorder.waitFor((e) => e.type === 'connection' && e.state === 'failed', 15_000)
    const health = recorder.of('keepalive', connection.id).map((p) => p.health)
    expect(health).toEqual(expect.arrayContaining(['healthy', 'degraded', 'down']))
    expect(health.indexOf('degraded')).toBeLessThan(health.indexOf('down'))
    const states = recorder.of('connection', connection.id).map((e) => e.state)
    expect(states).toEqual(['connecting', 'connected', 'degraded', 'reconnecting', 'reconnecting', 'reconnecting', 'failed'])
  })
})
