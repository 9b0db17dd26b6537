import { describe, expect, it } from 'vitest'
import { TaskState } from '@a2a-js/sdk'
import { AgentEvent, type AgentExecutor } from '@a2a-js/sdk/server'
import type { A2aHandshakeEvent, ConversationMessage, FrameEvent, SavedTarget } from '../../shared/contract'
import type { A2aConnection } from '../../shared/a2a/a2aConnection'
import { dataPart, MediaSalesExecutor, startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { startGrpcAgent } from '../fixtures/a2aAgents'
import { a2aTarget } from '../fixtures/targets'
import { perTestEngine } from '../fixtures/testEngine'

const px = perTestEngine()
const { serve } = px

const connect = (target: SavedTarget, defaults = {}) => px.connect<A2aConnection>(target, defaults)

const handshakeOf = (id: string) => px.recorder.of('handshake', id).at(-1) as A2aHandshakeEvent
const conversation = (id: string): ConversationMessage[] => px.recorder.of('conversation', id).map((e) => e.message)
const frames = (id: string, method?: string): FrameEvent[] =>
  px.recorder.of('frame', id).filter((f) => f.transport === 'grpc' && (!method || f.method === method))

describe('A2A over gRPC (the SDK’s gRPC server)', () => {
  it('inspects a card that offers only gRPC: every message of a call is a frame, metadata redacted, the status at the end', async () => {
    const agent = await serve(startGrpcAgent(new MediaSalesExecutor()))
    const connection = await connect(a2aTarget(agent.url, 'auto', { Authorization: 'Bearer s3cret-token', 'X-Team': 'sales' }))
    const handshake = handshakeOf(connection.id)
    expect(handshake).toMatchObject({
      transport: 'grpc',
      protocolVersion: '1.0',
      chosenInterface: { protocolBinding: 'GRPC', url: agent.grpcAddress },
      warnings: [],
    })
    expect(handshake.interfaceReason).toMatch(new RegExp(`^GRPC 1\\.0 at ${agent.grpcAddress}`))

    const result = await connection.send({ text: 'formats video' })
    expect(result).toMatchObject({ state: 'completed', streamed: false })
    const [request, response, trailers] = frames(connection.id, 'SendMessage')
    const call = { service: 'lf.a2a.v1.A2AService', method: 'SendMessage', target: agent.grpcAddress, tls: false }
    expect(request).toMatchObject({ direction: 'out', kind: 'request', transport: 'grpc', grpc: call })
    // The message in the protocol's JSON, as JSON-RPC would carry it; its size is its size on the wire.
    expect((request.payload as { message: { parts: { text: string }[] } }).message.parts[0].text).toBe('formats video')
    expect(request.bytes).toBeGreaterThan(10)
    expect(request.grpc!.metadata).toMatchObject({ authorization: '[redacted]', 'x-team': 'sales', 'a2a-version': '1.0' })
    expect(response).toMatchObject({ direction: 'in', kind: 'response', requestSeq: request.seq, grpc: call })
    expect((response.payload as { task: { status: { state: string } } }).task.status.state).toBe('TASK_STATE_COMPLETED')
    expect(response.grpc!.metadata).toHaveProperty('content-type', 'application/grpc+proto')
    expect(trailers).toMatchObject({ kind: 'trailers', requestSeq: request.seq, grpc: { ...call, status: { code: 0, name: 'OK' } } })
    expect(response.latencyMs).toBeGreaterThan(0)
    // The user's headers went to the agent as metadata, whole.
    expect(agent.calls.at(-1)!.metadata.get('authorization')).toEqual(['Bearer s3cret-token'])
    expect(conversation(connection.id).some((m) => m.metadata?.kind === 'artifact')).toBe(true)
  })

  it('streams over gRPC: each stream message is its own frame, and the timeline shows each state', async () => {
    const agent = await serve(startGrpcAgent(new MediaSalesExecutor()))
    const connection = await connect(a2aTarget(agent.url))
    const result = await connection.send(
      { data: { skill: 'get_products', input: { buying_mode: 'brief', brief: 'sports video' } } },
      { stream: true },
    )
    expect(result).toMatchObject({ state: 'completed', streamed: true })
    const call = frames(connection.id, 'SendStreamingMessage')
    expect(call.map((f) => f.kind)).toEqual(['request', 'stream-event', 'stream-event', 'stream-event', 'stream-event', 'trailers'])
    expect(call[1].grpc!.metadata).toBeDefined() // the response headers, with the first message
    expect(call[2].grpc!.metadata).toBeUndefined()
    const states = conversation(connection.id)
      .filter((m) => m.metadata?.kind === 'status')
      .map((m) => m.metadata?.state)
    expect(states).toEqual(['submitted', 'working', 'completed'])
  })

  it('reports the agent’s own status and reason (google.rpc.ErrorInfo) for errors, and keeps the connection', async () => {
    const agent = await serve(startGrpcAgent(new MediaSalesExecutor()))
    const connection = await connect(a2aTarget(agent.url))
    await expect(connection.getTask('no-such-task')).rejects.toMatchObject({ name: 'A2aCallError', code: 5, reason: 'TASK_NOT_FOUND' })
    const [request, end] = frames(connection.id, 'GetTask')
    expect(request.kind).toBe('request')
    expect(end).toMatchObject({ kind: 'error', grpc: { status: { code: 5, name: 'NOT_FOUND' } } })
    expect(end.payload).toMatchObject({
      code: 5,
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }],
    })
    expect(conversation(connection.id).at(-1)).toMatchObject({ metadata: { kind: 'error', code: 5, reason: 'TASK_NOT_FOUND' } })
    expect((await connection.send({ text: 'formats' })).state).toBe('completed')
    expect(connection.state).toBe('connected')
  })

  it('refuses an answer nested too deeply: the SDK never sees it, the frame keeps a preview, the turn fails saying why', async () => {
    let deep: Record<string, unknown> = { end: true }
    for (let i = 0; i < 300; i++) deep = { d: deep }
    const executor: AgentExecutor = {
      async execute(context, bus) {
        bus.publish(
          AgentEvent.message({
            messageId: 'deep',
            role: 2,
            parts: [dataPart(deep)],
            taskId: '',
            contextId: context.contextId,
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          }),
        )
      },
      cancelTask: async () => {},
    }
    const agent = await serve(startGrpcAgent(executor))
    const connection = await connect(a2aTarget(agent.url))
    await expect(connection.send({ text: 'go deep' })).rejects.toThrow(/nested deeper than 256 levels; Parallax refused it/)
    const refused = frames(connection.id, 'SendMessage').find((f) => f.kind === 'response')!
    expect(refused.truncated?.refused).toMatch(/nested deeper/)
    expect(typeof refused.payload).toBe('string')
    expect(frames(connection.id, 'SendMessage').at(-1)).toMatchObject({ kind: 'error', grpc: { status: { name: 'INTERNAL' } } })
    expect(connection.state).toBe('connected')
  })

  it('talks to the demo agent over gRPC when the target prefers it: its other port is asked about first, then tasks work as over HTTP', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(a2aTarget(agent.url, 'GRPC'))
    const handshake = handshakeOf(connection.id)
    expect(handshake).toMatchObject({ transport: 'grpc', chosenInterface: { protocolBinding: 'GRPC' } })
    expect(handshake.interfaceReason).toMatch(/because this target prefers GRPC/)
    // The gRPC port is another origin than the one configured: nothing went there before the user allowed it.
    const approval = px.recorder
      .of('handshake', connection.id)
      .find((h) => h.protocol === 'a2a' && h.warnings.some((w) => /nothing is sent there/.test(w)))
    expect(approval).toBeDefined()
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    expect(first.state).toBe('input-required')
    const second = await connection.send({ text: 'acmeoutdoor.example' })
    expect(second).toMatchObject({ state: 'completed', taskId: first.taskId, contextId: first.contextId })
    const tasks = await connection.listTasks()
    expect(tasks.map((t) => t.id)).toContain(first.taskId)
    const { conversation: history } = await connection.getTask(first.taskId!, 10)
    expect(history.history.filter((m) => m.role === 'user')).toHaveLength(2)
    const third = await connection.send({ text: 'buy prod_mobile_run 100' })
    expect(((await connection.cancelTask(third.taskId!)) as { status: { state: string } }).status.state).toBe('canceled')
    expect(
      frames(connection.id)
        .filter((f) => f.kind === 'request')
        .map((f) => f.method),
    ).toEqual(['SendMessage', 'SendMessage', 'ListTasks', 'GetTask', 'SendMessage', 'CancelTask'])
    // Keepalive still re-fetches the card over HTTP.
    expect(await connection.probeNow()).toBe(true)
  })

  it('resubscribes to a running task over gRPC', async () => {
    const executor: AgentExecutor = {
      async execute(context, bus) {
        const { taskId, contextId } = context
        const status = (state: TaskState) =>
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: { state, message: undefined, timestamp: new Date().toISOString() },
            metadata: undefined,
          })
        bus.publish(
          AgentEvent.task({
            id: taskId,
            contextId,
            status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
            artifacts: [],
            history: [context.userMessage],
            metadata: undefined,
          }),
        )
        await new Promise((resolve) => setTimeout(resolve, 400))
        bus.publish(status(TaskState.TASK_STATE_COMPLETED))
      },
      cancelTask: async () => {},
    }
    const agent = await serve(startGrpcAgent(executor))
    const connection = await connect(a2aTarget(agent.url))
    const sending = connection.send({ text: 'go' }, { stream: true })
    const snapshot = await px.recorder.waitFor((e) => e.type === 'conversation' && e.message.metadata?.state === 'working')
    const taskId = (snapshot.type === 'conversation' && snapshot.message.metadata?.taskId) as string
    const followed = (await connection.resubscribe(taskId)) as { status: { state: string } }
    expect(followed.status.state).toBe('completed')
    expect(frames(connection.id, 'SubscribeToTask').filter((f) => f.kind === 'stream-event').length).toBeGreaterThanOrEqual(1)
    expect((await sending).state).toBe('completed')
  })
})
