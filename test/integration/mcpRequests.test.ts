// The whole client role's "use what servers offer" half, through the engine's command API against real
// servers: @modelcontextprotocol/server-everything over stdio (its tools are called only with arguments of
// our own, never its schema defaults: one of them fetches an internet URL) and the demo servers.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROGRESS_METHODS, type ConversationEvent, type FrameEvent, type RequestAnswer, type SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

const everything: SavedTarget = {
  id: 'everything',
  name: 'server-everything',
  origin: 'user',
  options: {},
  spec: { kind: 'mcp-stdio', command: process.execPath, args: [entry, 'stdio'], env: {} },
}

let engine: Engine
let recorder: EventRecorder
let connectionId: string

beforeAll(async () => {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
  recorder = new EventRecorder(engine)
  connectionId = (await engine.invoke('connections.open', { target: { ...everything, origin: 'user' } })).connectionId
  expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
})
afterAll(async () => {
  await engine?.dispose()
})

const request = (method: string, params?: Record<string, unknown>, conversation?: boolean) =>
  engine.invoke('connections.request', { connectionId, method, ...(params && { params }), ...(conversation === false && { conversation }) })

function result(answer: RequestAnswer): Record<string, unknown> {
  if (answer.outcome !== 'result') throw new Error(`expected a result, got ${JSON.stringify(answer)}`)
  return answer.result
}

/** The conversation messages of one request, by its id: what the user asked and what came back. */
function exchange(requestId: string | number | undefined): ConversationEvent[] {
  return recorder.of('conversation', connectionId).filter((e) => e.message.metadata?.requestId === requestId)
}

describe('server-everything, through connections.request', () => {
  it('gets a prompt with arguments, as a conversation', async () => {
    const answer = await request('prompts/get', { name: 'args-prompt', arguments: { city: 'Lisbon', state: 'Lisboa' } })
    const messages = result(answer).messages as { role: string; content: { type: string; text: string } }[]
    expect(messages[0].content.text).toBe("What's weather in Lisbon, Lisboa?")
    const [asked, got] = exchange(answer.requestId)
    expect(asked.message).toMatchObject({ role: 'user', content: 'prompts/get args-prompt {"city":"Lisbon","state":"Lisboa"}' })
    expect(asked.message.metadata).toMatchObject({ kind: 'request', method: 'prompts/get', subject: 'args-prompt' })
    expect(got.message).toMatchObject({ role: 'agent', content: "user: What's weather in Lisbon, Lisboa?" })
    expect(got.message.metadata).toMatchObject({ kind: 'result', method: 'prompts/get', data: { messages } })
    // A request is an exchange, not a turn a replay would run.
    expect(asked.message.metadata?.turn).toBeUndefined()
  })

  it('completes a prompt argument in the context of the others, frames only when asked so', async () => {
    const answer = await request(
      'completion/complete',
      {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: '' },
        context: { arguments: { department: 'Sales' } },
      },
      false,
    )
    expect((result(answer).completion as { values: string[] }).values).toEqual(['David', 'Eve', 'Frank'])
    // Nothing of it in the conversation (the server's own requests, such as its roots/list, may land there meanwhile).
    expect(answer.requestId).toBeDefined()
    expect(exchange(answer.requestId)).toEqual([])
    expect(recorder.of('conversation', connectionId).filter((e) => e.message.metadata?.method === 'completion/complete')).toEqual([])
    const frames = recorder.of('frame', connectionId).filter((f) => f.method === 'completion/complete')
    expect(frames.map((f) => f.direction)).toEqual(['out', 'in'])
    expect(frames[0].subject).toBe('completable-prompt')
  })

  it('gets a prompt that embeds a resource', async () => {
    const answer = await request('prompts/get', { name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '2' } })
    const messages = result(answer).messages as { content: { type: string; resource?: { uri: string; text: string } } }[]
    expect(messages[1].content.type).toBe('resource')
    expect(messages[1].content.resource?.uri).toBe('demo://resource/dynamic/text/2')
  })

  it('reads a resource, and a template filled in (with completion of its parameter)', async () => {
    const docs = result(await request('resources/read', { uri: 'demo://resource/static/document/features.md' }))
    const [doc] = docs.contents as { mimeType: string; text: string }[]
    expect(doc.mimeType).toBe('text/markdown')
    expect(doc.text).toContain('# Everything Server - Features')

    const completion = result(
      await request('completion/complete', {
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/blob/{resourceId}' },
        argument: { name: 'resourceId', value: '7' },
      }),
    )
    expect((completion.completion as { values: string[] }).values).toEqual(['7'])
    const blob = result(await request('resources/read', { uri: 'demo://resource/dynamic/blob/7' }))
    const [content] = blob.contents as { uri: string; blob: string }[]
    expect(Buffer.from(content.blob, 'base64').toString()).toMatch(/^Resource 7: This is a base64 blob/)
    const answered = exchange(undefined).length // every exchange above carried its id
    expect(answered).toBe(0)
  })

  it('says a JSON-RPC error answer is one (with its code), and refuses what is no request before sending', async () => {
    const answer = await request('resources/read', { uri: 'demo://resource/dynamic/text/0' })
    expect(answer.outcome).toBe('error')
    if (answer.outcome !== 'error') return
    expect(answer.error.message).toContain('Unknown resource')
    expect(typeof answer.error.code).toBe('number')
    const [, got] = exchange(answer.requestId)
    expect(got.message.metadata).toMatchObject({ kind: 'error', method: 'resources/read', code: answer.error.code })

    const sent = recorder.of('frame', connectionId).length
    await expect(request('prompts/get', { arguments: { city: 'x' } })).rejects.toThrow(
      /invalid params for prompts\/get \(MCP schema\): params\.name/,
    )
    await expect(request('initialize', {})).rejects.toThrow(/the handshake/)
    await expect(request('notifications/initialized')).rejects.toThrow(/a notification, not a request/)
    await expect(request('sampling/createMessage', {})).rejects.toThrow(/a request a server makes of its client/)
    expect(recorder.of('frame', connectionId)).toHaveLength(sent)
  })

  it('calls get-tiny-image as a turn: the image block whole in the result and in the conversation', async () => {
    const answer = await request('tools/call', { name: 'get-tiny-image', arguments: {} })
    const content = result(answer).content as { type: string; mimeType?: string; data?: string }[]
    const image = content.find((c) => c.type === 'image')!
    expect(image.mimeType).toBe('image/png')
    expect(Buffer.from(image.data!, 'base64').subarray(1, 4).toString()).toBe('PNG')
    const [call, got] = exchange(answer.requestId)
    expect(call.message.metadata).toMatchObject({ kind: 'call', data: { tool: 'get-tiny-image' } })
    expect(typeof call.message.metadata?.turn).toBe('number')
    expect(got.message.metadata?.content).toEqual(content)
  })

  it('subscribes and unsubscribes, and the updates it asked for are no oddity', async () => {
    const uri = 'demo://resource/static/document/features.md'
    expect((await request('resources/subscribe', { uri })).outcome).toBe('result')
    await request('tools/call', { name: 'toggle-subscriber-updates', arguments: {} })
    const update = await recorder.waitFor(
      (e): e is FrameEvent => e.type === 'frame' && e.method === 'notifications/resources/updated' && e.connectionId === connectionId,
    )
    expect((update.payload as { params: { uri: string } }).params.uri).toBe(uri)
    await request('tools/call', { name: 'toggle-subscriber-updates', arguments: {} })
    expect((await request('resources/unsubscribe', { uri })).outcome).toBe('result')
    expect(recorder.of('log', connectionId).filter((l) => l.oddity)).toEqual([])
  })

  it('asks for progress only where a person waits on the server: a tool call, a prompt, a read; never its own discovery, pings or log level', async () => {
    const tokenOf = (answer: RequestAnswer) => {
      const frame = recorder.of('frame', connectionId).find((f) => f.direction === 'out' && f.id === answer.requestId)!
      return (frame.payload as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta?.progressToken
    }
    // Everything sent so far (discovery, earlier tests' subscriptions and completions) but the server's work a person waits on: no token.
    const quietSoFar = recorder
      .of('frame', connectionId)
      .filter((f) => f.direction === 'out' && f.kind === 'request' && !PROGRESS_METHODS.includes(f.method!))
    expect(quietSoFar.map((f) => f.method)).toEqual(expect.arrayContaining(['server/discover', 'initialize', 'tools/list']))
    for (const f of quietSoFar) expect(JSON.stringify(f.payload)).not.toContain('progressToken')

    expect(tokenOf(await request('tools/call', { name: 'echo', arguments: { message: 'hi' } }))).toBeDefined()
    expect(tokenOf(await request('resources/read', { uri: 'demo://resource/static/document/features.md' }))).toBeDefined()
    expect(tokenOf(await request('ping'))).toBeUndefined()
    expect(tokenOf(await request('logging/setLevel', { level: 'info' }))).toBeUndefined()
    // The user decides, either way.
    const quiet = await engine.invoke('connections.request', {
      connectionId,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
      progress: false,
    })
    expect(tokenOf(quiet)).toBeUndefined()
    expect(exchange(quiet.requestId)[0].message.metadata).not.toHaveProperty('progressToken') // the UI says no progress was asked for
    expect(tokenOf(await engine.invoke('connections.request', { connectionId, method: 'ping', progress: true }))).toBeDefined()
  })

  it('a long operation reports progress, and Cancel stops it: notifications/cancelled, no answer, said so', async () => {
    const pending = request('tools/call', { name: 'trigger-long-running-operation', arguments: { duration: 6, steps: 12 } })
    const progress = await recorder.waitFor(
      (e): e is FrameEvent => e.type === 'frame' && e.method === 'notifications/progress' && e.connectionId === connectionId,
    )
    const { progressToken, total } = (progress.payload as { params: { progressToken: number; total: number } }).params
    expect(total).toBe(12)
    const call = recorder
      .of('conversation', connectionId)
      .findLast(
        (e) =>
          e.message.metadata?.kind === 'call' && (e.message.metadata.data as { tool: string }).tool === 'trigger-long-running-operation',
      )!
    expect(call.message.metadata?.progressToken).toBe(progressToken)
    const requestId = call.message.metadata!.requestId as number
    expect(await engine.invoke('connections.cancel', { connectionId, requestId })).toEqual({ cancelled: true })
    const answer = await pending
    expect(answer.outcome).toBe('cancelled')
    const cancelled = recorder.of('frame', connectionId).find((f) => f.method === 'notifications/cancelled')!
    expect(cancelled.direction).toBe('out')
    expect((cancelled.payload as { params: { requestId: number; reason: string } }).params).toEqual({
      requestId,
      reason: 'cancelled by the user',
    })
    const [, got] = exchange(requestId)
    expect(got.message.metadata).toMatchObject({ kind: 'error', noAnswer: 'cancelled' })
    // Once cancelled, there is nothing left to cancel; the connection carries on.
    expect(await engine.invoke('connections.cancel', { connectionId, requestId })).toEqual({ cancelled: false })
    expect((await request('ping')).outcome).toBe('result')
  })

  it('logging/setLevel by request is kept like connections.setLogLevel', async () => {
    expect((await request('logging/setLevel', { level: 'warning' })).outcome).toBe('result')
    expect(recorder.of('log', connectionId).filter((l) => l.oddity)).toEqual([])
  })
})

describe('the demo prompt-only and resource-only servers', () => {
  it('get a prompt and read a templated resource', async () => {
    const prompts = (await engine.invoke('connections.open', { targetId: 'demo:prompts' })).connectionId
    const resources = (await engine.invoke('connections.open', { targetId: 'demo:resources' })).connectionId
    expect((await engine.invoke('connections.wait', { connectionId: prompts })).connected).toBe(true)
    expect((await engine.invoke('connections.wait', { connectionId: resources })).connected).toBe(true)
    const got = await engine.invoke('connections.request', {
      connectionId: prompts,
      method: 'prompts/get',
      params: { name: 'media_brief', arguments: { product: 'the Aurora phone' } },
    })
    expect(JSON.stringify(result(got))).toContain('the launch of the Aurora phone')
    const read = await engine.invoke('connections.request', {
      connectionId: resources,
      method: 'resources/read',
      params: { uri: 'media://products/prod_mobile_run' },
    })
    const [content] = result(read).contents as { mimeType: string; text: string }[]
    expect(content.mimeType).toBe('application/json')
    expect(JSON.parse(content.text)).toMatchObject({ product_id: 'prod_mobile_run' })
  })

  it('an A2A connection has no MCP requests, and says so', async () => {
    const a2a = (await engine.invoke('connections.open', { targetId: 'demo:a2a' })).connectionId
    await engine.invoke('connections.wait', { connectionId: a2a })
    await expect(engine.invoke('connections.request', { connectionId: a2a, method: 'ping' })).rejects.toThrow(
      /A2A connection has no requests by method/,
    )
  })
})
