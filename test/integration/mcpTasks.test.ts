// MCP tasks (2025-11-25), through the engine's command API: a tool call made as a task against an SDK server
// built for it (test/fixtures/servers/taskTools.ts) and against @modelcontextprotocol/server-everything's
// simulate-research-query (called with arguments of our own); the connection's tasks listed, got, cancelled;
// each task's life in the conversation in A2A's words; and a recorded task-based session replayed against
// the demo A2A agent.
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { turnOutcome, type SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll, fixtureTarget } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
const everything: SavedTarget & { origin: 'user' } = {
  id: 'everything',
  name: 'server-everything',
  origin: 'user',
  options: {},
  spec: { kind: 'mcp-stdio', command: process.execPath, args: [entry, 'stdio'], env: {} },
}
const taskTools = { ...fixtureTarget('taskTools'), origin: 'user' as const }
const dataDir = mkdtempSync(join(tmpdir(), 'parallax-mcp-tasks-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

let engine: Engine | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
})

async function connect(target: SavedTarget & { origin: 'user' }) {
  engine = new Engine({
    host: 'cli',
    dataDir,
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 3_600_000 },
  })
  const recorder = new EventRecorder(engine)
  const { connectionId } = await engine.invoke('connections.open', { target })
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
  return { e: engine, recorder, connectionId }
}

describe('MCP tasks', () => {
  it('a tool call made as a task: created, followed, its result fetched, its life in the conversation in A2A words', async () => {
    const { e, recorder, connectionId } = await connect(taskTools)
    const report = await e.invoke('tools.call', {
      connectionId,
      tool: 'get_products',
      arguments: { buying_mode: 'brief', brief: 'podcast' },
      task: true,
    })
    expect(report.error).toBeUndefined()
    expect(JSON.stringify(report.response)).toContain('prod_podcast_audio')

    const sent = recorder
      .of('frame', connectionId)
      .filter((f) => f.direction === 'out' && f.kind === 'request')
      .map((f) => f.method)
    expect(sent).toEqual(expect.arrayContaining(['tools/call', 'tasks/get', 'tasks/result']))
    const call = recorder.of('frame', connectionId).find((f) => f.direction === 'out' && f.method === 'tools/call')!
    expect((call.payload as { params: { task?: unknown } }).params.task).toEqual({ ttl: 300_000 })

    const turn = recorder.of('conversation', connectionId).map((c) => c.message)
    expect(turn[0].metadata).toMatchObject({ kind: 'call', turn: 1, asTask: true })
    const statuses = turn.filter((m) => m.metadata?.kind === 'status')
    expect(statuses.map((m) => m.content)).toEqual(expect.arrayContaining(['Gathering products…', 'Ranking by fit…']))
    expect(statuses.every((m) => m.metadata?.turn === 1 && typeof m.metadata?.taskId === 'string')).toBe(true)
    expect(statuses.at(-1)?.metadata?.state).toBe('completed')
    expect(turnOutcome(String(statuses.at(-1)?.metadata?.state))).toBe('completed')
    expect(turn.at(-1)?.metadata).toMatchObject({ kind: 'result', turn: 1 })

    const [listed] = await e.invoke('tasks.list', { connectionId })
    expect(listed).toMatchObject({ id: statuses[0].metadata?.taskId, status: { state: 'completed' } })
    const got = await e.invoke('tasks.get', { connectionId, taskId: listed.id })
    expect(got.task.status.state).toBe('completed')
  })

  it('cancels a running task: tasks/cancel, the call ends canceled', async () => {
    const { e, recorder, connectionId } = await connect(taskTools)
    const calling = e.invoke('tools.call', { connectionId, tool: 'slow_report', arguments: { topic: 'tides' }, task: true })
    const status = await recorder.waitFor(
      (event) => event.type === 'conversation' && event.message.metadata?.kind === 'status' && event.message.metadata.state === 'working',
    )
    const taskId = String((status as { message: { metadata: { taskId: string } } }).message.metadata.taskId)
    const cancelled = await e.invoke('tasks.cancel', { connectionId, taskId })
    expect(cancelled.status.state).toBe('canceled')
    const report = await calling
    expect((report.response as { isError?: boolean }).isError).toBe(true)
    const states = recorder
      .of('conversation', connectionId)
      .map((c) => c.message.metadata?.state)
      .filter(Boolean)
    expect(states.at(-1)).toBe('canceled')
  })

  it('server-everything: simulate-research-query as a task, through its stages to its report', async () => {
    const { e, recorder, connectionId } = await connect(everything)
    const report = await e.invoke('tools.call', {
      connectionId,
      tool: 'simulate-research-query',
      arguments: { topic: 'tide pools', ambiguous: false },
      task: true,
    })
    expect(JSON.stringify(report.response)).toContain('Research Report: tide pools')
    const statuses = recorder
      .of('conversation', connectionId)
      .filter((c) => c.message.metadata?.kind === 'status')
      .map((c) => c.message.content)
    expect(statuses).toEqual(expect.arrayContaining(['Gathering sources...']))
    expect((await e.invoke('tasks.list', { connectionId })).length).toBeGreaterThan(0)
  }, 30_000)

  it('one task call is one turn: the elicitation the task asks for joins the turn of the call that made it', async () => {
    const { e, recorder, connectionId } = await connect(everything)
    const report = await e.invoke('tools.call', {
      connectionId,
      tool: 'simulate-research-query',
      arguments: { topic: 'python', ambiguous: true },
      task: true,
    })
    expect(JSON.stringify(report.response)).toContain('Research Report: python')
    const messages = recorder.of('conversation', connectionId).map((c) => c.message)
    const ask = messages.find((m) => m.metadata?.kind === 'ask' && m.metadata.method === 'elicitation/create')
    const answer = messages.find((m) => m.metadata?.kind === 'answer' && m.metadata.method === 'elicitation/create')
    expect(ask?.metadata?.turn).toBe(1)
    expect(answer?.metadata?.turn).toBe(1)
    // Every message from the call to its result is turn 1 (but roots/list, which the server asks on its own after connecting).
    const ofCall = messages.slice(messages.findIndex((m) => m.metadata?.kind === 'call')).filter((m) => m.metadata?.method !== 'roots/list')
    expect(ofCall.map((m) => m.metadata?.turn)).toEqual(ofCall.map(() => 1))
  }, 30_000)

  it('a server without tasks says so, and a plain call stays plain', async () => {
    const { e, connectionId } = await connect({ ...fixtureTarget('slowTools'), origin: 'user' })
    await expect(e.invoke('tasks.list', { connectionId })).rejects.toThrow(/advertises no capabilities.tasks/)
  })

  it('a recorded task-based session replays against the demo A2A agent, turn by turn the same', async () => {
    const { e, connectionId } = await connect(taskTools)
    await e.invoke('recordings.start', { connectionId, name: 'task-search' })
    await e.invoke('tools.call', { connectionId, tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'podcast' }, task: true })
    const stopped = await e.invoke('recordings.stop', { connectionId })
    expect(stopped.turns).toBe(1)
    const { replayId } = await e.invoke('replay.start', { recording: 'task-search', targetIds: ['demo:a2a'] })
    const step = await e.invoke('replay.step', { replayId })
    expect(step?.a).toMatchObject({ outcome: 'completed', state: 'completed' })
    expect(step?.status, JSON.stringify(step?.diff)).toBe('same')
  })
})
