import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type {
  AuthEvent,
  EngineEvent,
  FrameEvent,
  SavedTarget,
  ServerRequestEvent,
  TimelineLaneId,
  TimelineView,
} from '../../shared/contract'
import type { A2aConnection } from '../../shared/a2a/a2aConnection'
import { startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine, type EngineOptions } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startOAuthMcpServer } from '../fixtures/oauthServers'
import { openApprovedTarget, openUiClient, waitConnected } from '../../web/client'
import { startWebHostProcess } from '../../web/launch'
import { DEMO_STDIO, mcpHost, serverCommand, tapped, tapSessions } from '../fixtures/tapHosts'
import { a2aTarget, approveAll, fixtureTarget } from '../fixtures/targets'

// Sessions on the time axis, from real servers: an MCP task with its states, a slow tool's progress filling its
// span, an elicitation a person answers late, keepalive probes, an A2A stream with its events; and the same
// session read back after the app closed, from its span index and from its events alone.

const require = createRequire(import.meta.url)
const everythingEntry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
const everything: SavedTarget = {
  id: 'everything',
  name: 'server-everything',
  origin: 'user',
  options: {},
  spec: { kind: 'mcp-stdio', command: process.execPath, args: [everythingEntry, 'stdio'], env: {} },
}

const dataDir = mkdtempSync(join(tmpdir(), 'parallax-timeline-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const engines: Engine[] = []
const agents: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()))
  await Promise.all(agents.splice(0).map((a) => a.close()))
})

function start(defaults: EngineOptions['defaults'] = {}): { engine: Engine; recorder: EventRecorder } {
  const engine = new Engine({
    host: 'web',
    dataDir,
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 3_600_000, ...defaults },
  })
  engines.push(engine)
  return { engine, recorder: new EventRecorder(engine) }
}

async function open(engine: Engine, target: SavedTarget): Promise<string> {
  const connection = await engine.createConnection(target)
  expect(await connection.open()).toBe(true)
  return connection.id
}

const view = (engine: Engine, connectionId: string, range: { from?: number; to?: number } = {}) =>
  engine.invoke('timeline.view', { connectionId, bins: 200, ...range })
const spansOf = (v: TimelineView, id: TimelineLaneId) => v.lanes.find((l) => l.id === id)?.spans ?? []
const frameOf = (recorder: EventRecorder, connectionId: string, test: (f: FrameEvent) => boolean) =>
  recorder.of('frame', connectionId).find(test)!

describe('a session on the time axis', () => {
  it('an MCP task is a span of its life with its states; its requests and a keepalive probe are in their lanes; the session reads back the same after the app closed', async () => {
    const { engine, recorder } = start({ keepaliveIntervalMs: 250 })
    const connectionId = await open(engine, fixtureTarget('taskTools'))
    const report = await engine.invoke('tools.call', {
      connectionId,
      tool: 'get_products',
      arguments: { buying_mode: 'brief', brief: 'podcast' },
      task: true,
    })
    expect(report.error).toBeUndefined()
    await recorder.waitFor((e: EngineEvent) => e.type === 'keepalive' && e.connectionId === connectionId && e.ok)

    const live = await view(engine, connectionId)
    const [task] = spansOf(live, 'tasks')
    expect(task.label).toMatch(/^task \S+ · get_products$/)
    expect(task.outcome).toBe('ok')
    expect(task.marks!.map((m) => m.label)).toEqual(['working', 'completed'])
    // The task lives from the call that made it to its last state: two stages of 300 ms.
    const call = frameOf(recorder, connectionId, (f) => f.direction === 'out' && f.method === 'tools/call')
    expect(task.seq).toBe(call.seq)
    expect(task.end! - task.start).toBeGreaterThanOrEqual(550)

    const requests = spansOf(live, 'requests')
    const labels = requests.map((s) => s.label)
    expect(labels).toEqual(expect.arrayContaining(['tools/call get_products', 'tasks/get', 'tasks/result']))
    const callSpan = requests.find((s) => s.seq === call.seq)!
    const answer = frameOf(recorder, connectionId, (f) => f.requestSeq === call.seq)
    expect(callSpan).toMatchObject({ outcome: 'ok', start: call.ts, end: answer.ts, endSeq: answer.seq })
    // The probe (the era's: tools/list here) is keepalive's, not the user's requests.
    const probeFrame = frameOf(recorder, connectionId, (f) => f.probe === true && f.kind === 'request')
    const probeAnswer = frameOf(recorder, connectionId, (f) => f.requestSeq === probeFrame.seq)
    expect(spansOf(live, 'keepalive').find((s) => s.seq === probeFrame.seq)).toMatchObject({
      label: probeFrame.method,
      outcome: 'ok',
      endSeq: probeAnswer.seq,
    })
    expect(requests.some((s) => s.seq === probeFrame.seq)).toBe(false)
    // Each probe once: its frames are the span, the keepalive event that follows adds none.
    const probes = new Set(
      recorder
        .of('frame', connectionId)
        .filter((f) => f.probe && f.kind === 'request')
        .map((f) => f.seq),
    )
    expect(spansOf(live, 'keepalive').every((s) => probes.has(s.seq))).toBe(true)
    expect(live.extent.start).toBeLessThanOrEqual(call.ts)

    const { rows } = await engine.invoke('timeline.latency', { connectionId })
    expect(rows.find((r) => r.method === 'tools/call')).toMatchObject({ subject: 'get_products', count: 1, errors: 0 })
    expect(rows.find((r) => r.method === 'tasks/get')!.count).toBeGreaterThanOrEqual(1)

    // The app closes; the session is read back as a past one, from the span index it wrote…
    const sessionId = engine.events.store.sessionOf(connectionId)!
    await engine.dispose()
    const { engine: again } = start()
    const range = { from: live.range.from, to: live.range.to }
    const past = await view(again, `session:${sessionId}`, range)
    expect(past.extent.start).toBe(live.extent.start)
    for (const lane of ['tasks', 'requests'] as const) expect(spansOf(past, lane)).toEqual(spansOf(live, lane))
    // …and, had it none (a session from before spans were kept), from its events alone, once.
    await again.dispose()
    rmSync(join(dataDir, 'sessions', sessionId, 'spans'), { recursive: true })
    const { engine: third } = start()
    const rebuilt = await view(third, `session:${sessionId}`, range)
    for (const lane of ['tasks', 'requests'] as const) expect(spansOf(rebuilt, lane)).toEqual(spansOf(live, lane))
    expect(existsSync(join(dataDir, 'sessions', sessionId, 'spans', 'complete'))).toBe(true) // kept for the next time
  })

  it('a slow tool that reports progress fills its span, not the notifications lane', async () => {
    const { engine } = start()
    const connectionId = await open(engine, fixtureTarget('slowTools', ['progress', 'quick-list']))
    await engine.invoke('tools.call', { connectionId, tool: 'slow', arguments: {} })
    const v = await view(engine, connectionId)
    const slow = spansOf(v, 'requests').find((s) => s.label === 'tools/call slow')!
    expect(slow.outcome).toBe('ok')
    expect(slow.end! - slow.start).toBeGreaterThanOrEqual(750)
    expect(slow.marks!.map((m) => m.fill)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => n / 8))
    expect(slow.marks!.every((m) => m.ts >= slow.start && m.ts <= slow.end!)).toBe(true)
    expect(spansOf(v, 'notifications').some((s) => s.label === 'notifications/progress')).toBe(false)

    await expect(view(engine, connectionId, { from: v.range.to, to: v.range.from })).rejects.toThrow(/ends .* before it begins/)

    // The connection closes: its session, ended, reads the same by the connection's id.
    await engine.invoke('connections.close', { connectionId })
    const ended = await view(engine, connectionId, { from: v.range.from, to: v.range.to })
    expect(spansOf(ended, 'requests')).toEqual(spansOf(v, 'requests'))
  })

  it('a request cancelled ends its span as cancelled; one that fails is marked in errors too', async () => {
    const { engine, recorder } = start()
    const connectionId = await open(engine, fixtureTarget('slowTools', ['progress', 'quick-list']))
    const asked = engine.invoke('connections.request', { connectionId, method: 'tools/call', params: { name: 'slow' }, progress: true })
    await recorder.waitFor((e) => e.type === 'frame' && e.method === 'notifications/progress' && e.connectionId === connectionId)
    const sent = recorder.of('frame', connectionId).findLast((f) => f.direction === 'out' && f.method === 'tools/call')!
    expect(await engine.invoke('connections.cancel', { connectionId, requestId: sent.id! })).toEqual({ cancelled: true })
    await asked
    const failed = await engine.invoke('connections.request', { connectionId, method: 'no/such/method' })
    expect(failed.outcome).toBe('error')

    const v = await view(engine, connectionId)
    const cancel = frameOf(recorder, connectionId, (f) => f.method === 'notifications/cancelled')
    expect(spansOf(v, 'requests').find((s) => s.seq === sent.seq)).toMatchObject({
      label: 'tools/call slow',
      outcome: 'cancelled',
      end: cancel.ts,
      endSeq: cancel.seq,
    })
    const refusal = frameOf(recorder, connectionId, (f) => f.method === 'no/such/method' && f.direction === 'in')
    expect(spansOf(v, 'requests').find((s) => s.label === 'no/such/method')).toMatchObject({ outcome: 'error', endSeq: refusal.seq })
    expect(spansOf(v, 'errors')).toContainEqual(
      expect.objectContaining({ label: 'no/such/method', outcome: 'error', start: refusal.ts, seq: refusal.seq }),
    )
  })

  it('an elicitation a person answers late: open while they think, then a span as long as they took, inside the call that asked', async () => {
    const { engine, recorder } = start()
    const connectionId = await open(engine, everything)
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-elicitation-request'),
    )
    const call = engine.invoke('tools.call', { connectionId, tool: 'trigger-elicitation-request', arguments: {} })
    const pending = (await recorder.waitFor(
      (e) => e.type === 'serverRequest' && e.method === 'elicitation/create' && e.state === 'pending',
    )) as ServerRequestEvent
    const waiting = spansOf(await view(engine, connectionId), 'server-requests')
    expect(waiting).toEqual([expect.objectContaining({ label: 'elicitation/create', outcome: 'pending', seq: pending.frameSeq })])
    expect(waiting[0].end).toBeUndefined()

    await new Promise((resolve) => setTimeout(resolve, 600))
    await engine.invoke('serverRequests.answer', {
      connectionId,
      id: pending.id,
      answer: { result: { action: 'accept', content: { name: 'Ada Lovelace', integer: 7 } } },
    })
    await call
    const v = await view(engine, connectionId)
    const [asked] = spansOf(v, 'server-requests')
    const answer = frameOf(recorder, connectionId, (f) => f.direction === 'out' && f.requestSeq === pending.frameSeq)
    expect(asked).toMatchObject({ label: 'elicitation/create', outcome: 'ok', endSeq: answer.seq })
    expect(asked.end! - asked.start).toBeGreaterThanOrEqual(600)
    const tool = spansOf(v, 'requests').find((s) => s.label === 'tools/call trigger-elicitation-request')!
    expect(tool.start).toBeLessThanOrEqual(asked.start)
    expect(tool.end).toBeGreaterThanOrEqual(asked.end!)
  })

  it('a resource subscription is a stream from its subscribing to its unsubscribing, each update marked', async () => {
    const { engine, recorder } = start()
    const connectionId = await open(engine, everything)
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'toggle-subscriber-updates'),
    )
    const uri = 'demo://resource/static/document/architecture.md'
    expect((await engine.invoke('connections.request', { connectionId, method: 'resources/subscribe', params: { uri } })).outcome).toBe(
      'result',
    )
    await engine.invoke('tools.call', { connectionId, tool: 'toggle-subscriber-updates', arguments: {} })
    const update = (await recorder.waitFor(
      (e) => e.type === 'frame' && e.method === 'notifications/resources/updated' && e.connectionId === connectionId,
    )) as FrameEvent
    const running = spansOf(await view(engine, connectionId), 'streams')
    expect(running).toEqual([expect.objectContaining({ label: `subscription ${uri}`, outcome: 'pending' })])
    expect(running[0].end).toBeUndefined()
    expect(running[0].marks).toEqual([{ ts: update.ts, label: 'updated', seq: update.seq }])

    await engine.invoke('connections.request', { connectionId, method: 'resources/unsubscribe', params: { uri } })
    await engine.invoke('tools.call', { connectionId, tool: 'toggle-subscriber-updates', arguments: {} })
    const unsubscribed = recorder.of('frame', connectionId).findLast((f) => f.method === 'resources/unsubscribe' && f.direction === 'in')!
    const [stream] = spansOf(await view(engine, connectionId), 'streams')
    expect(stream).toMatchObject({ label: `subscription ${uri}`, outcome: 'ok', end: unsubscribed.ts, endSeq: unsubscribed.seq })
  })

  it('an A2A stream is a span with its events marked; its task a span with its states', async () => {
    const agent = await startMediaSalesAgent()
    agents.push(agent)
    const { engine, recorder } = start()
    const connectionId = await open(engine, a2aTarget(agent.url))
    const a2a = engine.connection(connectionId) as unknown as A2aConnection
    const result = await a2a.send(
      { data: { skill: 'get_products', input: { buying_mode: 'brief', brief: 'sports video' } } },
      { stream: true },
    )
    expect(result.state).toBe('completed')
    const events = recorder.of('frame', connectionId).filter((f) => f.kind === 'stream-event')
    const v = await view(engine, connectionId)
    const [stream] = spansOf(v, 'streams')
    expect(stream).toMatchObject({ label: 'stream SendStreamingMessage get_products', outcome: 'ok', endSeq: events.at(-1)!.seq })
    expect(stream.marks!.map((m) => m.seq)).toEqual(events.map((e) => e.seq))
    expect(stream.marks!.map((m) => m.label)).toEqual(['submitted', 'working', 'artifactUpdate', 'completed'])
    const [task] = spansOf(v, 'tasks')
    expect(task.label).toMatch(/^task \S+ · get_products$/)
    expect(task).toMatchObject({ outcome: 'ok', seq: stream.seq, end: stream.end })
    expect(task.marks!.map((m) => m.label)).toEqual(['submitted', 'working', 'completed'])
    // The request itself is answered when its stream begins.
    const request = spansOf(v, 'requests').find((s) => s.seq === stream.seq)!
    expect(request).toMatchObject({ outcome: 'ok', endSeq: events[0].seq })
  })

  it('a tapped host’s session: the host’s requests are the requests lane, read back by the app from the session the tap wrote', async () => {
    const tapData = mkdtempSync(join(tmpdir(), 'parallax-timeline-tap-'))
    try {
      const { host } = await mcpHost(tapped(tapData, serverCommand(DEMO_STDIO, 'tools'), ['--name', 'media']))
      await host.listTools()
      await host.callTool({ name: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast' } })
      await host.ping()
      await host.close()
      await expect.poll(() => tapSessions(tapData)[0]?.summary.ended, { timeout: 10_000 }).toBe('closed')
      const [{ summary, events }] = tapSessions(tapData)
      const engine = new Engine({ host: 'web', dataDir: tapData, builtIns: builtInDemos(), approver: approveAll })
      engines.push(engine)
      const v = await view(engine, `session:${summary.id}`)
      const requests = spansOf(v, 'requests')
      expect(requests.map((s) => s.label)).toEqual(['initialize', 'tools/list', 'tools/call get_products', 'ping'])
      expect(requests.every((s) => s.outcome === 'ok' && s.end! >= s.start)).toBe(true)
      // Each span is the host's request and the server's answer, as the tap saw them.
      const call = events.find((e): e is FrameEvent => e.type === 'frame' && e.method === 'tools/call' && e.kind === 'request')!
      expect(call.direction).toBe('out')
      expect(requests[2]).toMatchObject({ seq: call.seq, start: call.ts })
      expect(spansOf(v, 'notifications').map((s) => s.label)).toContain('notifications/initialized')
    } finally {
      rmSync(tapData, { recursive: true, force: true })
    }
  })

  it('parallax web killed mid-session: the next start reads the cut-short session on the axis, its spans built from what reached the disk', async () => {
    const data = mkdtempSync(join(tmpdir(), 'parallax-timeline-killed-'))
    const first = await startWebHostProcess({ dataDir: data })
    try {
      const ui = await openUiClient(first)
      const { connectionId } = await openApprovedTarget(ui, {
        name: 'slow',
        spec: fixtureTarget('slowTools', ['silent', 'quick-list']).spec,
        options: { keepaliveIntervalMs: 3_600_000 },
      })
      await waitConnected(ui, connectionId)
      await ui.invoke('tools.call', { connectionId, tool: 'slow', arguments: {} })
      void ui.invoke('tools.call', { connectionId, tool: 'slow', arguments: {} }).catch(() => {}) // never answered: the host dies first
      await ui.waitForCount((e) => e.type === 'frame' && e.method === 'tools/call' && e.direction === 'out', 2, 10_000)
      await new Promise((resolve) => setTimeout(resolve, 300)) // the store writes every 50 ms
      process.kill(first.pid, 'SIGKILL')
      await ui.close().catch(() => {})
    } finally {
      await first.stop().catch(() => {})
    }
    const second = await startWebHostProcess({ dataDir: data })
    try {
      const ui = await openUiClient(second)
      const [session] = await ui.invoke('sessions.list', {})
      expect(session.ended).toBe('cut-short')
      const v = await ui.invoke('timeline.view', { connectionId: `session:${session.id}`, bins: 100 })
      const calls = v.lanes.find((l) => l.id === 'requests')!.spans!.filter((s) => s.label === 'tools/call slow')
      expect(calls.map((s) => s.outcome)).toEqual(['ok', 'pending'])
      expect(calls[0].end! - calls[0].start).toBeGreaterThanOrEqual(750)
      expect(calls[1].end).toBeUndefined()
      await ui.close()
      expect(existsSync(join(data, 'sessions', session.id, 'spans', 'complete'))).toBe(true)
    } finally {
      await second.stop()
      rmSync(data, { recursive: true, force: true })
    }
  })

  it('an OAuth step-up in the middle of a call: the flow is a span in auth, each step marked, inside the call it held up', async () => {
    const server = await startOAuthMcpServer()
    agents.push({ close: () => server.stop() })
    const { engine } = start()
    const target: SavedTarget = {
      id: 'orders',
      name: 'orders server',
      origin: 'user',
      options: { reconnectAttempts: 0 },
      spec: { kind: 'mcp-http', url: server.url, headers: {}, transport: 'streamable-http', oauth: {} },
    }
    await engine.invoke('targets.save', target)
    const refused = await engine.invoke('connections.open', { targetId: 'orders' })
    await engine.invoke('connections.wait', refused)
    const first = await engine.invoke('auth.begin', refused)
    await fetch(first.authorizationUrl!)
    await engine.invoke('auth.wait', { flowId: first.flowId })
    const { connectionId } = await engine.invoke('connections.reconnect', refused)
    expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })

    const call = engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })
    const recorder = new EventRecorder(engine)
    const ask = (await recorder.waitFor((e) => e.type === 'auth' && e.step === 'more-access')) as AuthEvent
    const again = await engine.invoke('auth.begin', { targetId: 'orders' })
    await fetch(again.authorizationUrl!)
    expect((await call).error).toBeUndefined()

    const v = await view(engine, connectionId)
    const flow = spansOf(v, 'auth').find((s) => s.marks?.some((m) => m.seq === ask.seq))!
    expect(flow).toMatchObject({ label: 'authorization orders', outcome: 'ok' })
    const steps = flow.marks!.map((m) => m.label.split(':')[0])
    expect(steps).toEqual(expect.arrayContaining(['more-access', 'authorize', 'callback', 'granted']))
    expect(steps.at(-1)).toBe('granted')
    // The call met the step-up, the flow ran, the call went again and was answered.
    const [met, sentAgain] = spansOf(v, 'requests').filter((s) => s.label === 'tools/call place_order')
    expect(met.start).toBeLessThanOrEqual(flow.start)
    expect(sentAgain.start).toBeGreaterThanOrEqual(flow.start)
    expect(sentAgain).toMatchObject({ outcome: 'ok' })
    expect(sentAgain.end).toBeGreaterThanOrEqual(flow.end!)
  })

  it('an MCP App view’s messages are the app lane: its request to Parallax answered, a notification a tick', async () => {
    const { engine, recorder } = start()
    const connectionId = await open(engine, fixtureTarget('appViews'))
    const { viewId } = await engine.invoke('apps.open', { connectionId, uri: 'ui://board/view.html' })
    const wire = (direction: 'in' | 'out', message: unknown, ts: number) => ({ direction, text: JSON.stringify(message), ts })
    const now = Date.now()
    await engine.invoke('apps.frames', {
      viewId,
      frames: [
        wire('in', { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: { appInfo: { name: 'board', version: '1' } } }, now - 20),
        wire('out', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2026-01-26' } }, now - 5),
        wire('in', { jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, now),
      ],
    })
    const bridge = recorder.of('frame', connectionId).filter((f) => f.protocol === 'mcp-app')
    const v = await view(engine, connectionId)
    expect(spansOf(v, 'app')).toEqual([
      { start: bridge[0].ts, end: bridge[1].ts, label: 'ui/initialize', outcome: 'ok', seq: bridge[0].seq, endSeq: bridge[1].seq },
      { start: bridge[2].ts, end: bridge[2].ts, label: 'ui/notifications/initialized', outcome: 'ok', seq: bridge[2].seq },
    ])
    // Not the server's: its requests lane holds the view's resources/read, not the view's own messages.
    expect(spansOf(v, 'requests').some((s) => s.label.startsWith('ui/'))).toBe(false)
    expect(spansOf(v, 'server-requests')).toEqual([])
  })
})
