import { describe, expect, it } from 'vitest'
import type { A2aBindingPreference, A2aHandshakeEvent, ConversationMessage, FrameEvent } from '../../shared/contract'
import type { A2aConnection } from '../../shared/a2a/a2aConnection'
import { startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { slowExecutor, startA2aAgent, startRawServer } from '../fixtures/a2aAgents'
import { startV03Agent } from '../fixtures/a2aV03Agent'
import { a2aTarget } from '../fixtures/targets'
import { perTestEngine } from '../fixtures/testEngine'

const px = perTestEngine()
const { serve } = px

const connect = (url: string, binding?: A2aBindingPreference, defaults = {}) => px.connect<A2aConnection>(a2aTarget(url, binding), defaults)

const handshakeOf = (id: string) => px.recorder.of('handshake', id)[0] as A2aHandshakeEvent
const conversation = (id: string): ConversationMessage[] => px.recorder.of('conversation', id).map((e) => e.message)
const frames = (id: string, method?: string): FrameEvent[] => px.recorder.of('frame', id).filter((f) => !method || f.method === method)

describe('A2A v1.0 agent (the demo media-sales agent)', () => {
  it('fetches and checks the card, detects v1.0, and says which interface it chose and why', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    const handshake = handshakeOf(connection.id)
    expect(handshake).toMatchObject({
      protocol: 'a2a',
      transport: 'jsonrpc',
      generation: '1.0',
      protocolVersion: '1.0',
      cardUrl: `${agent.url}/.well-known/agent-card.json`,
      chosenInterface: { protocolBinding: 'JSONRPC', protocolVersion: '1.0', url: `${agent.url}/a2a/jsonrpc` },
      capabilities: { streaming: true, pushNotifications: true },
      warnings: [],
    })
    expect(handshake.interfaceReason).toMatch(/JSONRPC 1\.0/)
    expect(handshake.skills.map((s) => s.id)).toEqual([
      'get_adcp_capabilities',
      'get_products',
      'list_creative_formats',
      'create_media_buy',
      'get_media_buys',
      'get_media_buy_delivery',
    ])
    expect((handshake.agentCard as { name: string }).name).toBe('Parallax demo media-sales agent')
    const [request, response] = frames(connection.id, 'agent-card')
    expect(request).toMatchObject({ direction: 'out', kind: 'request', http: { method: 'GET', headers: { 'a2a-version': '1.0' } } })
    expect(response).toMatchObject({ direction: 'in', kind: 'response', http: { status: 200 } })
    expect(response.latencyMs).toBeGreaterThan(0)
    expect(px.recorder.of('discovery', connection.id).map((d) => [d.method, d.status])).toEqual([
      ['agent-card', 'called'],
      ['extended-agent-card', 'skipped'],
    ])
  })

  it('continues a task that asks for input, completes it, and fetches the whole history', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    expect(first.state).toBe('input-required')
    const second = await connection.send({ text: 'acmeoutdoor.example' })
    expect(second).toMatchObject({ state: 'completed', taskId: first.taskId, contextId: first.contextId })
    expect(second.request).toMatchObject({ taskId: first.taskId, contextId: first.contextId })
    // On the wire: the second SendMessage carried the task and context ids.
    const sends = frames(connection.id, 'SendMessage').filter((f) => f.direction === 'out')
    expect((sends[1].payload as { params: { message: { taskId: string } } }).params.message.taskId).toBe(first.taskId)
    const artifact = (second.response as { artifacts: { parts: { data: Record<string, unknown> }[] }[] }).artifacts[0]
    expect(artifact.parts[0].data).toMatchObject({
      media_buy_id: 'mb_0001',
      status: 'active',
      packages: [{ product_id: 'prod_mobile_run', budget: 2000 }],
    })

    const { task, conversation: history } = await connection.getTask(first.taskId!, 10)
    expect((task as { status: { state: string } }).status.state).toBe('completed')
    expect(history.contextId).toBe(first.contextId)
    expect(history.history.map((m) => [m.role, m.metadata?.kind, m.metadata?.state])).toEqual([
      ['user', 'message', undefined],
      ['agent', 'message', undefined], // the question
      ['user', 'message', undefined],
      ['agent', 'message', undefined], // "Running create_media_buy…"
      ['agent', 'status', 'completed'],
      ['agent', 'artifact', undefined],
    ])
    expect(history.history.every((m) => m.timestamp > 0 && m.metadata?.timestampSource === 'observed')).toBe(true)
    expect(history.history[1].content).toMatch(/Which brand/)
  })

  it('streams: every SSE event is its own frame, the timeline shows each state and the artifact', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    const result = await connection.send(
      { data: { skill: 'get_products', input: { buying_mode: 'brief', brief: 'sports video' } } },
      { stream: true },
    )
    expect(result).toMatchObject({ state: 'completed', streamed: true })
    const events = frames(connection.id, 'SendStreamingMessage').filter((f) => f.kind === 'stream-event')
    expect(events.length).toBe(4) // task, working, artifact, completed
    expect(events.every((e) => e.direction === 'in' && e.latencyMs! > 0 && e.bytes > 0)).toBe(true)
    const states = conversation(connection.id)
      .filter((m) => m.metadata?.kind === 'status')
      .map((m) => m.metadata?.state)
    expect(states).toEqual(['submitted', 'working', 'completed'])
    const artifact = conversation(connection.id).find((m) => m.metadata?.kind === 'artifact')!
    expect((artifact.metadata?.data as { products: { product_id: string }[] }).products[0].product_id).toBe('prod_sports_video')
  })

  it('talks HTTP+JSON when the target prefers it, with the same operation names', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url, 'HTTP+JSON')
    expect(handshakeOf(connection.id)).toMatchObject({ transport: 'rest', chosenInterface: { protocolBinding: 'HTTP+JSON' } })
    const result = await connection.send({ text: 'formats video' })
    expect(result.state).toBe('completed')
    const [request] = frames(connection.id, 'SendMessage')
    expect(request).toMatchObject({ transport: 'rest', http: { method: 'POST', url: `${agent.url}/a2a/rest/message:send` } })
  })

  it('cancels a task parked in input-required', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    const canceled = (await connection.cancelTask(first.taskId!)) as { status: { state: string } }
    expect(canceled.status.state).toBe('canceled')
    expect(conversation(connection.id).at(-1)?.metadata?.state).toBe('canceled')
  })

  it('reports the agent’s own code and reason for errors, and keeps the connection', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    await expect(connection.getTask('no-such-task')).rejects.toMatchObject({ name: 'A2aCallError', code: -32001, reason: 'TASK_NOT_FOUND' })
    const errorFrame = frames(connection.id, 'GetTask').find((f) => f.direction === 'in')!
    expect(errorFrame.kind).toBe('error')
    const done = await connection.send({ text: 'formats' })
    await expect(connection.cancelTask(done.taskId!)).rejects.toMatchObject({ code: -32002, reason: 'TASK_NOT_CANCELABLE' })
    expect(conversation(connection.id).filter((m) => m.metadata?.kind === 'error')).toHaveLength(2)
    expect(connection.state).toBe('connected')
  })

  it('lists the tasks of the context, and starts a new context on demand', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url)
    const a = await connection.send({ text: 'formats' })
    const b = await connection.send({ text: 'search news' })
    expect(b.contextId).toBe(a.contextId)
    const tasks = await connection.listTasks()
    expect(tasks.map((t) => t.id).sort()).toEqual([a.taskId, b.taskId].sort())
    // The list carries each task's artifacts (ListTasks leaves them out unless asked), so the count is true.
    expect(tasks.every((t) => t.artifacts.length > 0)).toBe(true)
    connection.newContext()
    const c = await connection.send({ text: 'formats audio' })
    expect(c.contextId).not.toBe(a.contextId)
  })

  it('resubscribes to a running task: the stream starts with a snapshot and follows it to the end', async () => {
    const agent = await serve(startA2aAgent(slowExecutor(400)))
    const connection = await connect(agent.url)
    const sending = connection.send({ text: 'go' }, { stream: true })
    const snapshot = await px.recorder.waitFor((e) => e.type === 'conversation' && e.message.metadata?.state === 'working')
    const taskId = (snapshot.type === 'conversation' && snapshot.message.metadata?.taskId) as string
    const followed = (await connection.resubscribe(taskId)) as { status: { state: string } }
    expect(followed.status.state).toBe('completed')
    expect(frames(connection.id, 'SubscribeToTask').filter((f) => f.kind === 'stream-event').length).toBeGreaterThanOrEqual(2)
    expect((await sending).state).toBe('completed')
  })

  it('keeps alive with conditional card fetches answered 304', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(agent.url, 'auto', { keepaliveIntervalMs: 150 })
    await px.recorder.waitForCount((e) => e.type === 'keepalive' && e.connectionId === connection.id, 2)
    const probes = px.recorder.of('keepalive', connection.id)
    expect(probes.every((p) => p.probe === 'agent-card' && p.ok && p.note === 'not modified (ETag)')).toBe(true)
    expect(
      frames(connection.id, 'agent-card')
        .filter((f) => f.direction === 'in')
        .slice(1)
        .every((f) => f.http?.status === 304),
    ).toBe(true)
  })
})

describe('A2A v0.3 agent (built with the 0.3 SDK)', () => {
  it('is detected as v0.3 and spoken to in v0.3, multi-turn included', async () => {
    const agent = await serve(startV03Agent())
    const connection = await connect(agent.url)
    const handshake = handshakeOf(connection.id)
    expect(handshake).toMatchObject({
      generation: '0.3',
      protocolVersion: '0.3',
      chosenInterface: { protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
    }) // the card's own words for the interface used
    expect(handshake.generationReason).toMatch(/top-level url/)
    expect(handshake.interfaceReason).toMatch(/v0\.3 compatibility layer/)
    const first = await connection.send({ text: 'greet' })
    expect(first.state).toBe('input-required')
    const second = await connection.send({ text: 'Ada' })
    expect(second).toMatchObject({ state: 'completed', taskId: first.taskId })
    const sent = frames(connection.id, 'message/send').filter((f) => f.direction === 'out')
    expect(sent).toHaveLength(2)
    expect((sent[0].payload as { params: { message: { kind: string } } }).params.message.kind).toBe('message')
    expect(conversation(connection.id).at(-1)?.content).toBe('Hello, Ada!')
    const streamed = await connection.send({ text: 'hi' }, { stream: true })
    expect(streamed.state).toBe('completed')
    expect(frames(connection.id, 'message/stream').some((f) => f.kind === 'stream-event')).toBe(true)
  })
})

describe('A2A agents that misbehave', () => {
  it('fails clearly when the card is not JSON, and when it is not there', async () => {
    const raw = await serve(startRawServer({ '/.well-known/agent-card.json': () => ({ body: '<html>hello</html>', type: 'text/html' }) }))
    const engine = px.start()
    const bad = await engine.createConnection(a2aTarget(raw.url))
    expect(await bad.open()).toBe(false)
    expect(px.recorder.of('connection', bad.id).at(-1)?.reason).toMatch(/agent card at .* is not JSON/)
    const missing = await engine.createConnection(a2aTarget(`${raw.url}/elsewhere`))
    expect(await missing.open()).toBe(false)
    expect(px.recorder.of('connection', missing.id).at(-1)?.reason).toMatch(/answered HTTP 404/)
  })

  it('shows card problems as warnings: a v0.3 card claiming v1.0, interfaces pointing nowhere', async () => {
    const raw = await serve(
      startRawServer({
        '/.well-known/agent-card.json': (url) => ({
          body: JSON.stringify({
            name: 'Liar',
            url: `${url}/rpc`,
            protocolVersion: '1.0.0',
            preferredTransport: 'JSONRPC',
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 's', name: 'S', tags: [] }],
          }),
        }),
        '/rpc': () => ({ body: 'not json at all' }),
      }),
    )
    const connection = await connect(raw.url)
    const handshake = handshakeOf(connection.id)
    expect(handshake.generation).toBe('0.3')
    expect(handshake.warnings).toEqual(
      expect.arrayContaining([
        'required field "description" is missing',
        'required field "version" is missing',
        'the card claims protocolVersion 1.0.0 but has the v0.3 shape (top-level url, no supportedInterfaces)',
        'skills[0] has no description',
      ]),
    )
    expect(px.recorder.of('log', connection.id).filter((l) => l.level === 'warn').length).toBe(handshake.warnings.length)
    // Its endpoint answers garbage: a clear error, not a crash.
    await expect(connection.send({ text: 'hello' })).rejects.toThrow(/./)
    expect(conversation(connection.id).at(-1)?.metadata?.kind).toBe('error')
    expect(connection.state).toBe('connected')
  })

  it('still shows an unusable card, with everything wrong with it, when no client can be made from it', async () => {
    const raw = await serve(
      startRawServer({ '/.well-known/agent-card.json': () => ({ body: JSON.stringify({ name: 'Empty', skills: [{ id: 's' }] }) }) }),
    )
    const engine = px.start()
    const connection = await engine.createConnection(a2aTarget(raw.url))
    expect(await connection.open()).toBe(false)
    const handshake = handshakeOf(connection.id)
    expect(handshake.chosenInterface).toBeUndefined()
    expect(handshake.warnings).toEqual(
      expect.arrayContaining(['skills[0] has no tags array', expect.stringMatching(/^no usable interface: /)]),
    )
    expect(px.recorder.of('connection', connection.id).at(-1)).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/agent card cannot be used/),
    })
  })

  it('reports an agent that disappears mid-stream, and keepalive takes the connection down', async () => {
    const agent = await serve(startA2aAgent(slowExecutor(5_000)))
    const connection = await connect(agent.url, 'auto', {
      keepaliveIntervalMs: 150,
      requestTimeoutMs: 500,
      reconnectAttempts: 1,
      reconnectBaseDelayMs: 50,
    })
    const sending = connection.send({ text: 'take your time' }, { stream: true })
    await px.recorder.waitFor((e) => e.type === 'frame' && e.kind === 'stream-event' && e.connectionId === connection.id)
    await agent.close()
    await expect(sending).rejects.toThrow(/./)
    expect(conversation(connection.id).at(-1)?.metadata?.kind).toBe('error')
    await px.recorder.waitFor((e) => e.type === 'connection' && e.connectionId === connection.id && e.state === 'failed', 10_000)
    const health = px.recorder.of('keepalive', connection.id).map((p) => p.health)
    expect(health).toContain('down')
  })
})
