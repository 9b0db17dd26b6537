// Sending a request seen in Frames again, as it was or edited, through the engine's command API against real
// servers: the demo media-sales tool server (hooks apply to a resent tool call), server-everything (a prompt
// with arguments; its tools are called only with arguments of our own) and the demo A2A agent.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { CommandError, type FrameEvent, type SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { acpTarget } from '../fixtures/acp/targets'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')
const everything: SavedTarget & { origin: 'user' } = {
  id: 'everything',
  name: 'server-everything',
  origin: 'user',
  options: {},
  spec: { kind: 'mcp-stdio', command: process.execPath, args: [entry, 'stdio'], env: {} },
}
const FILL_BUYING_MODE = fileURLToPath(new URL('../../shared/demo/hooks/fill-buying-mode.json', import.meta.url))

let engine: Engine | undefined
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
})

async function connect(target: { targetId: string } | { target: SavedTarget & { origin: 'user' } }) {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
  const recorder = new EventRecorder(engine)
  const { connectionId } = await engine.invoke('connections.open', target)
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
  return { e: engine, recorder, connectionId }
}

const requestsOf = (recorder: EventRecorder, connectionId: string, method: string) =>
  recorder.of('frame', connectionId).filter((f) => f.direction === 'out' && f.kind === 'request' && f.method === method && !f.probe)

async function refusal(promise: Promise<unknown>): Promise<CommandError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(CommandError)
  return error as CommandError
}

describe('resending a request from Frames', () => {
  it('resends a prompt as it was, and edited: new frames linked to the original, a read asks nothing', async () => {
    const { e, recorder, connectionId } = await connect({ target: everything })
    await e.invoke('connections.request', {
      connectionId,
      method: 'prompts/get',
      params: { name: 'args-prompt', arguments: { city: 'Lisbon', state: 'Lisboa' } },
    })
    const original = requestsOf(recorder, connectionId, 'prompts/get')[0]
    const check = await e.invoke('requests.check', { connectionId, seq: original.seq })
    expect(check).toEqual({ method: 'prompts/get', problems: [], schemaKnown: true })

    const again = await e.invoke('requests.resend', { connectionId, seq: original.seq })
    expect(again.kind).toBe('request')
    const sent = recorder.of('frame', connectionId).find((f) => f.seq === again.requestSeq)!
    expect(sent).toMatchObject({ direction: 'out', method: 'prompts/get', resendOf: original.seq })
    expect((sent.payload as { params: { arguments: unknown } }).params.arguments).toEqual({ city: 'Lisbon', state: 'Lisboa' })
    const answer = recorder.of('frame', connectionId).find((f) => f.requestSeq === sent.seq)!
    expect(answer.resendOf).toBe(original.seq)
    expect(original.resendOf).toBeUndefined()

    const edited = await e.invoke('requests.resend', {
      connectionId,
      seq: original.seq,
      params: { name: 'args-prompt', arguments: { city: 'Porto' } },
    })
    if (edited.kind !== 'request' || edited.answer.outcome !== 'result') throw new Error(JSON.stringify(edited))
    const messages = edited.answer.result.messages as { content: { text: string } }[]
    expect(messages[0].content.text).toBe("What's weather in Porto?")
  })

  it('refuses edited params the MCP schema breaks, saying where and why, and sends nothing', async () => {
    const { e, recorder, connectionId } = await connect({ target: everything })
    await e.invoke('connections.request', {
      connectionId,
      method: 'resources/read',
      params: { uri: 'demo://resource/static/document/architecture.md' },
    })
    const original = requestsOf(recorder, connectionId, 'resources/read')[0]
    const check = await e.invoke('requests.check', { connectionId, seq: original.seq, params: { uri: 42 } })
    expect(check.problems).toEqual([expect.objectContaining({ path: 'uri' })])
    const before = recorder.of('frame', connectionId).length
    const error = await refusal(e.invoke('requests.resend', { connectionId, seq: original.seq, params: { uri: 42 } }))
    expect(error.code).toBe('invalid-input')
    expect(error.message).toMatch(/not sent: the params break the MCP schema for resources\/read: uri: /)
    expect(recorder.of('frame', connectionId).filter((f) => !f.probe)).toHaveLength(before)
  })

  it('asks before a tool call, and hooks apply to the resent call as to any other', async () => {
    const { e, recorder, connectionId } = await connect({ targetId: 'demo:tools' })
    await e.invoke('tools.call', {
      connectionId,
      tool: 'get_products',
      arguments: { buying_mode: 'wholesale' },
    })
    const original = requestsOf(recorder, connectionId, 'tools/call')[0]
    expect((await e.invoke('requests.check', { connectionId, seq: original.seq })).changesState).toMatch(/tool call/)
    const unconfirmed = await refusal(e.invoke('requests.resend', { connectionId, seq: original.seq }))
    expect(unconfirmed.message).toMatch(/asks first/)
    expect(requestsOf(recorder, connectionId, 'tools/call')).toHaveLength(1)

    await e.invoke('hooks.load', { connectionId, path: FILL_BUYING_MODE })
    const again = await e.invoke('requests.resend', {
      connectionId,
      seq: original.seq,
      confirmed: true,
      params: { name: 'get_products', arguments: { brief: 'podcast' } },
    })
    if (again.kind !== 'call') throw new Error(JSON.stringify(again))
    // The hook filled in what the edit left out, and the call went through the inspected path.
    expect(again.report.raw).toEqual({ brief: 'podcast' })
    expect(again.report.hooked).toMatchObject({ buying_mode: 'brief' })
    const sent = recorder.of('frame', connectionId).find((f) => f.seq === again.requestSeq)! as FrameEvent
    expect(sent.resendOf).toBe(original.seq)
    expect((sent.payload as { params: { arguments: unknown } }).params.arguments).toMatchObject({ brief: 'podcast', buying_mode: 'brief' })
    expect(recorder.of('call', connectionId)).toHaveLength(2)
  })

  it('resends an A2A message as a turn and a GetTask as it was, checked against the SDK request shapes', async () => {
    const { e, recorder, connectionId } = await connect({ targetId: 'demo:a2a' })
    const first = await e.invoke('conversation.send', {
      connectionId,
      turn: { data: { skill: 'get_products', input: { buying_mode: 'brief', brief: 'sports fans' } } },
    })
    const sendFrame = requestsOf(recorder, connectionId, 'SendMessage')[0]
    const check = await e.invoke('requests.check', { connectionId, seq: sendFrame.seq })
    expect(check.problems).toEqual([])
    expect(check.changesState).toMatch(/message/)
    const broken = await e.invoke('requests.check', { connectionId, seq: sendFrame.seq, params: { message: { parts: [] } } })
    expect(broken.problems).toEqual([{ path: 'message.parts', message: 'a message needs at least one part' }])

    const again = await e.invoke('requests.resend', { connectionId, seq: sendFrame.seq, confirmed: true })
    if (again.kind !== 'turn') throw new Error(JSON.stringify(again))
    expect(again.result.state).toBe(first.state)
    expect(recorder.of('frame', connectionId).find((f) => f.seq === again.requestSeq)?.resendOf).toBe(sendFrame.seq)

    await e.invoke('tasks.get', { connectionId, taskId: first.taskId! })
    const getFrame = requestsOf(recorder, connectionId, 'GetTask')[0]
    const got = await e.invoke('requests.resend', { connectionId, seq: getFrame.seq })
    if (got.kind !== 'task') throw new Error(JSON.stringify(got))
    expect(got.task && 'id' in got.task && got.task.id).toBe(first.taskId)
  })

  it('checks an ACP prompt against the ACP schema (params shaped for A2A or MCP are refused) and asks before sending it again', async () => {
    const { e, recorder, connectionId } = await connect({ target: acpTarget('stableAgent', 'basic') })
    await e.invoke('conversation.send', { connectionId, turn: { text: 'what is the answer?' } })
    const prompt = requestsOf(recorder, connectionId, 'session/prompt')[0]
    const check = await e.invoke('requests.check', { connectionId, seq: prompt.seq })
    expect(check).toMatchObject({
      method: 'session/prompt',
      problems: [],
      schemaKnown: true,
      changesState: expect.stringMatching(/prompt/),
    })

    // Params shaped like an A2A message, or an MCP tool call: the ACP schema refuses them, even confirmed.
    for (const params of [
      { message: { role: 'ROLE_USER', parts: [{ text: 'book prod_ctv_prime for 90000' }] } },
      { name: 'create_media_buy', arguments: { product_id: 'prod_ctv_prime', budget: 90000 } },
    ]) {
      const error = await refusal(e.invoke('requests.resend', { connectionId, seq: prompt.seq, params, confirmed: true }))
      expect(error.message).toMatch(/^not sent: the params break the ACP schema for session\/prompt: sessionId: .*; prompt: /)
    }
    // As it was, but not confirmed: a prompt starts work on the agent, so it asks first.
    const unconfirmed = await refusal(e.invoke('requests.resend', { connectionId, seq: prompt.seq }))
    expect(unconfirmed.message).toMatch(/asks first \(it sends the agent a prompt/)
    expect(requestsOf(recorder, connectionId, 'session/prompt')).toHaveLength(1)

    const again = await e.invoke('requests.resend', { connectionId, seq: prompt.seq, confirmed: true })
    if (again.kind !== 'request' || again.answer.outcome !== 'result') throw new Error(JSON.stringify(again))
    expect(again.answer.result).toEqual({ stopReason: 'end_turn' })
    const sent = recorder.of('frame', connectionId).find((f) => f.seq === again.requestSeq)!
    expect(sent).toMatchObject({ method: 'session/prompt', resendOf: prompt.seq })
    expect((sent.payload as { params: unknown }).params).toEqual((prompt.payload as { params: unknown }).params)
    const turns = recorder.of('conversation', connectionId).filter((c) => c.message.metadata?.kind === 'status')
    expect(turns.map((c) => c.message.metadata?.turn)).toEqual([1, 2])

    // The session the connection opened is its own: not sent again from Frames.
    const opened = requestsOf(recorder, connectionId, 'session/new')[0]
    const notAgain = await refusal(e.invoke('requests.check', { connectionId, seq: opened.seq }))
    expect(notAgain.message).toMatch(/cannot be sent again: session\/new is the connection's own/)
  })

  it('asks first for every method not known to be a read, whatever the protocol', async () => {
    const { changesState } = await import('../../shared/contract')
    expect(changesState('mcp', 'prompts/get')).toBeUndefined()
    expect(changesState('a2a', 'GetTask')).toBeUndefined()
    expect(changesState('acp', 'session/prompt')).toMatch(/prompt/)
    expect(changesState('a2a', 'CreateTaskPushNotificationConfig')).toMatch(/push notifications/)
    expect(changesState('mcp', 'x-vendor/reindex')).toMatch(/does not know x-vendor\/reindex to be a read/)
  })
})
