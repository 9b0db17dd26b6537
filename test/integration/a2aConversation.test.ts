import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConversationMessage, SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

let engine: Engine | undefined
let server: Server | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  if (server) await new Promise<void>((resolve) => (server!.closeAllConnections(), server!.close(() => resolve())))
  server = undefined
})

/**
 * A v1.0 agent whose stream never sends the task itself: a status update first, then an artifact, then
 * the final status — an order the protocol allows and the SDK's own client accepts.
 */
async function startUpdatesOnlyAgent(): Promise<string> {
  let url = ''
  server = createServer((req, res) => void answer(req, res))
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (req.method === 'GET' && path.endsWith('agent-card.json')) {
      const card = {
        name: 'Updates-only agent',
        description: 'Streams status and artifact updates, never the task',
        version: '1.0.0',
        supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        capabilities: { streaming: true },
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['application/json'],
        skills: [{ id: 'report', name: 'Report', description: 'Reports', tags: [] }],
      }
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card))
    }
    let body = ''
    for await (const chunk of req) body += chunk
    const { id } = JSON.parse(body) as { id: number | string }
    const task = { taskId: 'task-1', contextId: 'ctx-1' }
    const events = [
      { statusUpdate: { ...task, status: { state: 'TASK_STATE_WORKING' } } },
      { artifactUpdate: { ...task, artifact: { artifactId: 'art-1', name: 'report', parts: [{ data: { impressions: 1200 } }] } } },
      { statusUpdate: { ...task, status: { state: 'TASK_STATE_COMPLETED' } } },
    ]
    res.writeHead(200, { 'Content-Type': 'text/event-stream' })
    events.forEach((result, n) => res.write(`id: ev-${n + 1}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`))
    res.end()
  }
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
  return url
}

async function connect(
  target: string | (SavedTarget & { origin: 'user' }),
): Promise<{ e: Engine; recorder: EventRecorder; connectionId: string }> {
  const e = (engine = new Engine({
    host: 'cli',
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 60_000 },
  }))
  const recorder = new EventRecorder(e)
  const { connectionId } =
    typeof target === 'string' ? await e.invoke('connections.open', { targetId: target }) : await e.invoke('connections.open', { target })
  await recorder.waitFor((ev) => ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'connected', 20_000)
  return { e, recorder, connectionId }
}

describe('A2A conversations come out right, whatever the event order', () => {
  it('a stream that starts with a status update (no task first) ends in its final state, with its artifact', async () => {
    const url = await startUpdatesOnlyAgent()
    const { e, recorder, connectionId } = await connect({
      id: 'updates',
      name: 'updates',
      origin: 'user',
      options: {},
      spec: { kind: 'a2a', url, headers: {}, binding: 'auto' },
    })
    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'report' }, stream: true, newContext: false })
    expect(result).toMatchObject({ state: 'completed', taskId: 'task-1', contextId: 'ctx-1', streamed: true })
    expect(result.response).toMatchObject({
      id: 'task-1',
      status: { state: 'completed' },
      artifacts: [{ artifactId: 'art-1', parts: [{ data: { impressions: 1200 } }] }],
    })
    const states = recorder
      .of('conversation', connectionId)
      .map((c) => c.message.metadata?.state)
      .filter(Boolean)
    expect(states).toEqual(['working', 'completed'])
    // Each SSE event's own id is on its frame.
    const ids = recorder
      .of('frame', connectionId)
      .filter((f) => f.kind === 'stream-event')
      .map((f) => f.http?.eventId)
    expect(ids).toEqual(['ev-1', 'ev-2', 'ev-3'])
  })

  it('a non-streamed answer says each agent message once (a status message is also in the history)', async () => {
    const { e, recorder, connectionId } = await connect('demo:a2a')
    await e.invoke('conversation.send', { connectionId, turn: { text: 'buy prod_mobile_run 2000' }, stream: false, newContext: false })
    await e.invoke('conversation.send', { connectionId, turn: { text: 'acmeoutdoor.example' }, stream: false, newContext: false })
    const agent: ConversationMessage[] = recorder
      .of('conversation', connectionId)
      .map((c) => c.message)
      .filter((m) => m.role === 'agent')
    const spoken = agent.filter((m) => m.content).map((m) => `${m.metadata?.messageId ?? m.metadata?.artifactId}:${m.content}`)
    expect(spoken.length).toBeGreaterThan(1)
    expect(new Set(spoken).size).toBe(spoken.length)
  })
})
