import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { AgentCard } from '@a2a-js/sdk'
import type { ConversationMessage, FrameEvent, SavedTarget } from '../../shared/contract'
import type { A2aConnection } from '../../shared/a2a/a2aConnection'
import { MediaSalesExecutor, startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { startA2aAgent } from '../fixtures/a2aAgents'
import { a2aTarget } from '../fixtures/targets'
import { perTestEngine } from '../fixtures/testEngine'

const px = perTestEngine()
const { serve } = px

const connect = (target: SavedTarget) => px.connect<A2aConnection>(target)

const withPush = (card: AgentCard): AgentCard => ({ ...card, capabilities: { ...card.capabilities!, pushNotifications: true } })
/** An agent that advertises push notifications and accepts configs, but never sends one. */
const silent = { send: async () => {} }
const pushes = (id: string): ConversationMessage[] =>
  px.recorder
    .of('conversation', id)
    .map((e) => e.message)
    .filter((m) => m.metadata?.kind === 'push')
const pushFrames = (id: string): FrameEvent[] => px.recorder.of('frame', id).filter((f) => f.method === 'PushNotification')
const oddities = (id: string) => px.recorder.of('log', id).filter((l) => l.oddity)

describe('A2A push notifications, to Parallax’s webhook receiver on 127.0.0.1', () => {
  it('creates, gets, lists and deletes a task’s config; each push the SDK’s sender makes is a frame and a conversation event', async () => {
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), withPush))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    expect(first.state).toBe('input-required')
    const push = connection.pushConfigs()
    const config = await push.create(first.taskId!, 5_000)
    expect(config).toMatchObject({
      taskId: first.taskId,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/push\/[0-9a-f-]{36}$/),
      hasToken: true,
      receiver: { pushes: 0, expectWithinMs: 5_000 },
    })
    expect(await push.get(first.taskId!, config.id)).toMatchObject({ id: config.id, url: config.url })
    expect((await push.list(first.taskId!)).map((c) => c.id)).toEqual([config.id])
    // The config went to the agent as A2A's own request, the token with it.
    const created = px.recorder
      .of('frame', connection.id)
      .find((f) => f.method === 'CreateTaskPushNotificationConfig' && f.direction === 'out')!
    expect((created.payload as { params: { url: string; token: string } }).params).toMatchObject({
      url: config.url,
      token: expect.any(String),
    })

    const second = await connection.send({ text: 'acmeoutdoor.example' })
    expect(second.state).toBe('completed')
    await px.recorder.waitFor(
      (e) => e.type === 'conversation' && e.message.metadata?.kind === 'push' && e.message.metadata.state === 'completed',
    )
    const frames = pushFrames(connection.id)
    expect(frames.length).toBeGreaterThanOrEqual(2)
    expect(frames[0]).toMatchObject({
      direction: 'in',
      kind: 'notification',
      transport: 'rest',
      subject: first.taskId,
      http: { method: 'POST', url: config.url, status: 200, headers: { 'x-a2a-notification-token': '[redacted]' } },
    })
    expect(pushes(connection.id).at(-1)).toMatchObject({
      role: 'agent',
      metadata: { kind: 'push', taskId: first.taskId, state: 'completed', configId: config.id, frameSeq: frames.at(-1)!.seq },
    })
    const after = await push.get(first.taskId!, config.id)
    expect(after.receiver!.pushes).toBe(frames.length)
    expect(after.receiver!.finding).toBeUndefined()
    expect(oddities(connection.id)).toEqual([])

    await push.delete(first.taskId!, config.id)
    expect(await push.list(first.taskId!)).toEqual([])
    // The webhook is gone with its config.
    expect((await fetch(config.url, { method: 'POST', body: '{}' })).status).toBe(404)
  })

  it('refuses a push without its token (or with another) and says so as an oddity', async () => {
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), withPush, undefined, silent))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    const config = await connection.pushConfigs().create(first.taskId!, 60_000)
    const body = JSON.stringify({
      statusUpdate: { taskId: first.taskId, contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' } },
    })
    expect((await fetch(config.url, { method: 'POST', body })).status).toBe(401)
    expect((await fetch(config.url, { method: 'POST', body, headers: { 'X-A2A-Notification-Token': 'guess' } })).status).toBe(401)
    expect((await fetch(config.url, { method: 'GET' })).status).toBe(405)
    await px.recorder.waitForCount((e) => e.type === 'log' && e.connectionId === connection.id && e.oddity === true, 2)
    expect(oddities(connection.id).map((l) => l.text)).toEqual([
      expect.stringMatching(/was refused: it carried no token \(frame #\d+\)/),
      expect.stringMatching(/was refused: it carried a wrong token/),
    ])
    expect(pushFrames(connection.id).map((f) => [f.kind, f.http?.status])).toEqual([
      ['error', 401],
      ['error', 401],
    ])
    expect(pushes(connection.id)).toEqual([]) // nothing refused reaches the conversation
  })

  it('counts a push only for the task it names: one naming a task that does not exist (or none) is an oddity, not a push', async () => {
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), withPush, undefined, silent))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    const config = await connection.pushConfigs().create(first.taskId!, 400)
    const created = px.recorder
      .of('frame', connection.id)
      .find((f) => f.method === 'CreateTaskPushNotificationConfig' && f.direction === 'out')!
    const token = (created.payload as { params: { token: string } }).params.token
    const post = (body: unknown) =>
      fetch(config.url, { method: 'POST', body: JSON.stringify(body), headers: { 'X-A2A-Notification-Token': token } })
    const forged = { statusUpdate: { taskId: 'no-such-task', contextId: first.contextId, status: { state: 'TASK_STATE_COMPLETED' } } }
    expect((await post(forged)).status).toBe(200)
    expect((await post({ message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'hello' }] } })).status).toBe(200)
    await px.recorder.waitForCount((e) => e.type === 'log' && e.connectionId === connection.id && e.oddity === true, 2)
    expect(oddities(connection.id).map((l) => l.text)).toEqual([
      expect.stringMatching(/to the webhook for task \w+ names task no-such-: not counted for that task \(frame #\d+\)/),
      expect.stringMatching(/names no task \(a message\): not counted/),
    ])
    expect(pushFrames(connection.id).map((f) => f.subject)).toEqual(['no-such-task', first.taskId])
    expect(pushes(connection.id)).toEqual([])

    // The watched task then changes, and the agent pushes nothing for it: still a finding.
    expect((await connection.send({ text: 'acmeoutdoor.example' })).state).toBe('completed')
    const finding = await px.recorder.waitFor(
      (e) => e.type === 'log' && e.connectionId === connection.id && /sent no push notification/.test(e.text),
      5_000,
    )
    expect(finding).toMatchObject({ oddity: true })
    expect((await connection.pushConfigs().get(first.taskId!, config.id)).receiver).toMatchObject({ pushes: 0 })
  })

  it('makes an agent whose pushes never arrive a finding: the task changed state, and no push came within the bound', async () => {
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), withPush, undefined, silent))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    const config = await connection.pushConfigs().create(first.taskId!, 300)
    expect((await connection.send({ text: 'acmeoutdoor.example' })).state).toBe('completed')
    const finding = await px.recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && e.oddity === true, 5_000)
    expect(finding).toMatchObject({
      level: 'warn',
      text: expect.stringMatching(/sent no push notification for task \w+ within 300 ms of its change input-required → completed/),
    })
    expect((await connection.pushConfigs().get(first.taskId!, config.id)).receiver!.finding).toMatch(/sent no push notification/)
  })

  it('notices a change it did not see: once the bound has passed, the task is asked for, and a silent agent is a finding', async () => {
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), withPush, undefined, silent))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    await connection.pushConfigs().create(first.taskId!, 400)
    // Someone else answers the task, behind this connection's back.
    const answer = await fetch(`${agent.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: {
            messageId: randomUUID(),
            role: 'ROLE_USER',
            parts: [{ text: 'acmeoutdoor.example' }],
            taskId: first.taskId,
            contextId: first.contextId,
          },
        },
      }),
    })
    expect(((await answer.json()) as { result: { task: { status: { state: string } } } }).result.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    )
    const finding = await px.recorder.waitFor((e) => e.type === 'log' && e.connectionId === connection.id && e.oddity === true, 5_000)
    expect(finding).toMatchObject({ text: expect.stringMatching(/input-required → completed/) })
    expect(px.recorder.of('frame', connection.id).filter((f) => f.method === 'GetTask' && f.direction === 'out')).toHaveLength(1)
  })

  it('works over gRPC with the demo agent: the configs go by gRPC, the pushes come over HTTP', async () => {
    const agent = await serve(startMediaSalesAgent())
    const connection = await connect(a2aTarget(agent.url, 'GRPC'))
    const first = await connection.send({ text: 'buy prod_mobile_run 2000' })
    const config = await connection.pushConfigs().create(first.taskId!, 5_000)
    const calls = px.recorder.of('frame', connection.id).filter((f) => f.method === 'CreateTaskPushNotificationConfig')
    expect(calls.map((f) => [f.transport, f.kind])).toEqual([
      ['grpc', 'request'],
      ['grpc', 'response'],
      ['grpc', 'trailers'],
    ])
    expect((await connection.pushConfigs().list(first.taskId!)).map((c) => c.id)).toEqual([config.id])
    await connection.send({ text: 'guaranteed' })
    await px.recorder.waitFor(
      (e) => e.type === 'conversation' && e.message.metadata?.kind === 'push' && e.message.metadata.state === 'completed',
    )
    expect(pushFrames(connection.id).every((f) => f.transport === 'rest' && f.http?.status === 200)).toBe(true)
  })

  it('says clearly when the agent does not do push notifications', async () => {
    const noPush = (card: AgentCard): AgentCard => ({ ...card, capabilities: { ...card.capabilities!, pushNotifications: false } })
    const agent = await serve(startA2aAgent(new MediaSalesExecutor(), noPush))
    const connection = await connect(a2aTarget(agent.url))
    const first = await connection.send({ text: 'formats' })
    await expect(connection.pushConfigs().create(first.taskId!, 1_000)).rejects.toThrow(/push notification/i)
    expect(px.recorder.of('conversation', connection.id).at(-1)?.message.metadata?.kind).toBe('error')
  })
})
