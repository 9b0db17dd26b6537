import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { EngineEvent, FrameEvent, SavedTarget, ServerRequestEvent, TimelineLaneId, TimelineView } from '../../shared/contract'
import type { A2aConnection } from '../../shared/a2a/a2aConnection'
import { startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine, type EngineOptions } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
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
    const report = await engine.invoke('tools.call', { connectionId, tool: 'search_products', arguments: { brief: 'podcast' }, task: true })
    expect(report.error).toBeUndefined()
    await recorder.waitFor((e: EngineEvent) => e.type === 'keepalive' && e.connectionId === connectionId && e.ok)

    const live = await view(engine, connectionId)
    const [task] = spansOf(live, 'tasks')
    expect(task.label).toMatch(/^task \S+ · search_products$/)
    expect(task.outcome).toBe('ok')
    expect(task.marks!.map((m) => m.label)).toEqual(['working', 'completed'])
    // The task lives from the call that made it to its last state: two stages of 300 ms.
    const call = frameOf(recorder, connectionId, (f) => f.direction === 'out' && f.method === 'tools/call')
    expect(task.seq).toBe(call.seq)
    expect(task.end! - task.start).toBeGreaterThanOrEqual(550)

    const requests = spansOf(live, 'requests')
    const labels = requests.map((s) => s.label)
    expect(labels).toEqual(expect.arrayContaining(['tools/call search_products', 'tasks/get', 'tasks/result']))
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
    expect(live.extent.start).toBeLessThanOrEqual(call.ts)

    const { rows } = await engine.invoke('timeline.latency', { connectionId })
    expect(rows.find((r) => r.method === 'tools/call')).toMatchObject({ subject: 'search_products', count: 1, errors: 0 })
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

  it('an A2A stream is a span with its events marked; its task a span with its states', async () => {
    const agent = await startMediaSalesAgent()
    agents.push(agent)
    const { engine, recorder } = start()
    const connectionId = await open(engine, a2aTarget(agent.url))
    const a2a = engine.connection(connectionId) as unknown as A2aConnection
    const result = await a2a.send({ data: { skill: 'search_products', input: { brief: 'sports video' } } }, { stream: true })
    expect(result.state).toBe('completed')
    const events = recorder.of('frame', connectionId).filter((f) => f.kind === 'stream-event')
    const v = await view(engine, connectionId)
    const [stream] = spansOf(v, 'streams')
    expect(stream).toMatchObject({ label: 'stream SendStreamingMessage search_products', outcome: 'ok', endSeq: events.at(-1)!.seq })
    expect(stream.marks!.map((m) => m.seq)).toEqual(events.map((e) => e.seq))
    expect(stream.marks!.map((m) => m.label)).toEqual(['submitted', 'working', 'artifactUpdate', 'completed'])
    const [task] = spansOf(v, 'tasks')
    expect(task.label).toMatch(/^task \S+ · search_products$/)
    expect(task).toMatchObject({ outcome: 'ok', seq: stream.seq, end: stream.end })
    expect(task.marks!.map((m) => m.label)).toEqual(['submitted', 'working', 'completed'])
    // The request itself is answered when its stream begins.
    const request = spansOf(v, 'requests').find((s) => s.seq === stream.seq)!
    expect(request).toMatchObject({ outcome: 'ok', endSeq: events[0].seq })
  })
})
