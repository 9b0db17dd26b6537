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
      tool: 'create_media_buy',
      arguments: { product_id: 'prod_mobile_run', budget: 500, buying_mode: 'guaranteed' },
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
      params: { name: 'create_media_buy', arguments: { product_id: 'prod_mobile_run', budget: 700 } },
    })
    if (again.kind !== 'call') throw new Error(JSON.stringify(again))
    // The hook filled in what the edit left out, and the call went through the inspected path.
    expect(again.report.raw).toEqual({ product_id: 'prod_mobile_run', budget: 700 })
    expect(again.report.hooked).toMatchObject({ buying_mode: 'auction' })
    const sent = recorder.of('frame', connectionId).find((f) => f.seq === again.requestSeq)! as FrameEvent
    expect(sent.resendOf).toBe(original.seq)
    expect((sent.payload as { params: { arguments: unknown } }).params.arguments).toMatchObject({ budget: 700, buying_mode: 'auction' })
    expect(recorder.of('call', connectionId)).toHaveLength(2)
  })

  it('resends an A2A message as a turn and a GetTask as it was, checked against the SDK request shapes', async () => {
    const { e, recorder, connectionId } = await connect({ targetId: 'demo:a2a' })
    const first = await e.invoke('conversation.send', {
      connectionId,
      turn: { data: { skill: 'search_products', input: { brief: 'sports fans' } } },
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
})
