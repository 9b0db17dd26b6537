import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtInDemos } from '../../shared/demo/builtIns'
import type { EngineEvent, SavedTarget, ServerRequestEvent } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

/**
 * @modelcontextprotocol/server-everything, the MCP reference server, as the other side of Parallax's
 * client role. Its tools are always called with explicit arguments (one tool's default is an internet URL).
 */
function everything(more: Partial<SavedTarget> = {}): SavedTarget {
  return {
    id: 'everything',
    name: 'server-everything',
    origin: 'user',
    options: {},
    spec: { kind: 'mcp-stdio', command: process.execPath, args: [entry, 'stdio'], env: {} },
    ...more,
  }
}

let engine: Engine
afterEach(async () => {
  await engine?.dispose()
})

async function open(target: SavedTarget, host: 'web' | 'cli' = 'web') {
  engine = new Engine({ host, builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
  const recorder = new EventRecorder(engine)
  const connection = await engine.createConnection(target)
  expect(await connection.open()).toBe(true)
  return { recorder, connectionId: connection.id, connection }
}

const isRequest = (method: string, state: ServerRequestEvent['state']) => (e: EngineEvent) =>
  e.type === 'serverRequest' && e.method === method && e.state === state

const text = (report: { response?: unknown }) =>
  ((report.response as { content?: { text?: string }[] } | undefined)?.content ?? []).map((c) => c.text ?? '').join('\n')

describe('the client role against server-everything', () => {
  it('offers sampling, elicitation and roots under the default profile, so the server shows its tools for them', async () => {
    const { recorder, connectionId } = await open(everything())
    const [handshake] = recorder.of('handshake', connectionId)
    if (handshake.protocol !== 'mcp') throw new Error('expected MCP')
    expect(handshake.profile).toBe('default')
    expect(handshake.clientCapabilities).toMatchObject({ sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } })
    // The server registers these tools once it saw the client's capabilities: list_changed brings them.
    await recorder.waitFor((e) => e.type === 'discovery' && e.method === 'tools/list' && (e.items ?? []).length > 15)
    const tools = recorder
      .of('discovery', connectionId)
      .findLast((e) => e.method === 'tools/list')!
      .items!.map((t) => (t as { name: string }).name)
    expect(tools).toEqual(
      expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation', 'get-roots-list']),
    )
  })

  it('under "minimal" the server hides them, and the handshake names the profile', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll })
    const recorder = new EventRecorder(engine)
    const connection = await engine.createConnection(everything({ profile: 'minimal' }))
    expect(await connection.open()).toBe(true)
    const [handshake] = recorder.of('handshake', connection.id)
    expect(handshake.protocol === 'mcp' && handshake.profile).toBe('minimal')
    expect(handshake.protocol === 'mcp' && handshake.clientCapabilities).toEqual({})
    await connection.settled()
    const tools = recorder
      .of('discovery', connection.id)
      .findLast((e) => e.method === 'tools/list')!
      .items!.map((t) => (t as { name: string }).name)
    expect(tools).not.toContain('trigger-sampling-request')
  })

  it('a sampling request waits for a person, who answers it; the tool call that led to it does not time out meanwhile', async () => {
    const target = everything({ options: { requestTimeoutMs: 1_500 } })
    const { recorder, connectionId } = await open(target)
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-sampling-request'),
    )
    const call = engine.execute('tools.call', {
      connectionId,
      tool: 'trigger-sampling-request',
      arguments: { prompt: 'Say hello', maxTokens: 20 },
    })
    const pending = (await recorder.waitFor(isRequest('sampling/createMessage', 'pending'))) as ServerRequestEvent
    expect(pending.params).toMatchObject({ systemPrompt: 'You are a helpful test server.', maxTokens: 20 })
    expect(pending.frameSeq).toBeGreaterThan(0)
    expect(pending.waitLimitMs).toBeGreaterThan(0)
    // Longer than the request timeout: the call keeps waiting while the person does.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    await expect(
      engine.execute('serverRequests.answer', { connectionId, id: pending.id, answer: { result: { model: 'x' } } }),
    ).rejects.toThrow(/content/)
    await engine.execute('serverRequests.answer', {
      connectionId,
      id: pending.id,
      answer: { result: { text: 'Hello from a person', model: 'by-hand', stopReason: 'endTurn' } },
    })
    const report = (await call) as { response?: unknown; error?: string }
    expect(report.error).toBeUndefined()
    expect(text(report)).toContain('Hello from a person')
    const answered = recorder
      .of('serverRequest', connectionId)
      .find((e) => e.state === 'answered' && e.method === 'sampling/createMessage')!
    expect(answered).toMatchObject({
      by: 'user',
      result: { role: 'assistant', model: 'by-hand', content: { type: 'text', text: 'Hello from a person' } },
    })
    const frames = recorder
      .of('frame', connectionId)
      .filter((f) => f.id === pending.id && (f.direction === 'in' ? f.method === 'sampling/createMessage' : f.kind === 'response'))
    expect(frames.map((f) => [f.direction, f.kind])).toEqual([
      ['in', 'request'],
      ['out', 'response'],
    ])
    const kinds = recorder.of('conversation', connectionId).map((e) => e.message.metadata?.kind)
    expect(kinds).toEqual(expect.arrayContaining(['ask', 'answer']))
  })

  it('a person rejects a sampling request; the server gets an error', async () => {
    const { recorder, connectionId } = await open(everything())
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-sampling-request'),
    )
    const call = engine.execute('tools.call', { connectionId, tool: 'trigger-sampling-request', arguments: { prompt: 'No', maxTokens: 5 } })
    const pending = (await recorder.waitFor(isRequest('sampling/createMessage', 'pending'))) as ServerRequestEvent
    await engine.execute('serverRequests.answer', { connectionId, id: pending.id, answer: { reject: 'not today' } })
    const report = (await call) as { response?: { isError?: boolean }; error?: string }
    expect(JSON.stringify(report)).toContain('not today')
    expect(recorder.of('serverRequest', connectionId).find((e) => e.state === 'failed')).toMatchObject({ by: 'user', error: { code: -1 } })
  })

  it('a form elicitation waits for a person; accepting sends what they filled in', async () => {
    const { recorder, connectionId } = await open(everything())
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-elicitation-request'),
    )
    const call = engine.execute('tools.call', { connectionId, tool: 'trigger-elicitation-request', arguments: {} })
    const pending = (await recorder.waitFor(isRequest('elicitation/create', 'pending'))) as ServerRequestEvent
    // `name` is required: accepting without it is refused here, before the server sees anything.
    await expect(
      engine.execute('serverRequests.answer', { connectionId, id: pending.id, answer: { result: { action: 'accept', content: {} } } }),
    ).rejects.toThrow(/required: name/)
    await engine.execute('serverRequests.answer', {
      connectionId,
      id: pending.id,
      answer: { result: { action: 'accept', content: { name: 'Ada Lovelace', integer: 7 } } },
    })
    const report = await call
    expect(text(report as { response?: unknown })).toContain('Name: Ada Lovelace')
    expect(text(report as { response?: unknown })).toContain('Favorite Integer: 7')
  })

  it('a URL elicitation shows its URL; the answer says whether the user agreed to go', async () => {
    const { recorder, connectionId } = await open(everything())
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-url-elicitation'),
    )
    const call = engine.execute('tools.call', {
      connectionId,
      tool: 'trigger-url-elicitation',
      arguments: { url: 'https://example.invalid/consent', message: 'Open this to continue', errorPath: false },
    })
    const pending = (await recorder.waitFor(isRequest('elicitation/create', 'pending'))) as ServerRequestEvent
    expect(pending.params).toMatchObject({ mode: 'url', url: 'https://example.invalid/consent' })
    await engine.execute('serverRequests.answer', { connectionId, id: pending.id, answer: { result: { action: 'decline' } } })
    expect(JSON.stringify(await call)).toContain('decline')
  })

  it('answers roots/list with the target roots, and tells the server when they change', async () => {
    const { recorder, connectionId, connection } = await open(everything({ roots: [{ uri: 'file:///work/one', name: 'one' }] }))
    await recorder.waitFor((e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'get-roots-list'))
    let report = await engine.execute('tools.call', { connectionId, tool: 'get-roots-list', arguments: {} })
    expect(text(report as { response?: unknown })).toContain('file:///work/one')
    expect(recorder.of('serverRequest', connectionId).find((e) => e.method === 'roots/list')).toMatchObject({
      state: 'answered',
      by: 'parallax',
    })
    const asked = recorder.of('frame', connectionId).filter((f) => f.method === 'roots/list' && f.direction === 'in').length
    await connection.setRoots([{ uri: 'file:///work/two' }])
    await recorder.waitFor((e) => e.type === 'frame' && e.method === 'notifications/roots/list_changed' && e.direction === 'out')
    await recorder.waitForCount((e) => e.type === 'frame' && e.method === 'roots/list' && e.direction === 'in', asked + 1)
    await connection.settled()
    report = await engine.execute('tools.call', { connectionId, tool: 'get-roots-list', arguments: {} })
    expect(text(report as { response?: unknown })).toContain('file:///work/two')
  })

  it('a saved target whose roots change tells its live session', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll })
    const recorder = new EventRecorder(engine)
    const saved = await engine.execute('targets.save', { ...everything(), id: undefined, roots: ['file:///a'].map((uri) => ({ uri })) })
    const { id } = saved as SavedTarget
    const { connectionId } = (await engine.execute('connections.open', { targetId: id })) as { connectionId: string }
    await engine.execute('connections.wait', { connectionId })
    await engine.execute('targets.save', { ...(saved as SavedTarget), roots: [{ uri: 'file:///b' }] })
    await recorder.waitFor((e) => e.type === 'frame' && e.connectionId === connectionId && e.method === 'notifications/roots/list_changed')
  })

  it('a scripted responder answers without a person: canned replies from a file, and --elicit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-responder-'))
    const file = join(dir, 'replies.json')
    writeFileSync(
      file,
      JSON.stringify({
        sampling: [
          { match: 'weather', text: 'Sunny' },
          { text: 'Canned reply', model: 'canned', stopReason: 'endTurn' },
        ],
      }),
    )
    const { recorder, connectionId } = await open(everything({ responder: { file, elicit: 'decline' } }), 'cli')
    await recorder.waitFor(
      (e) => e.type === 'discovery' && (e.items ?? []).some((t) => (t as { name: string }).name === 'trigger-sampling-request'),
    )
    const sampled = await engine.execute('tools.call', {
      connectionId,
      tool: 'trigger-sampling-request',
      arguments: { prompt: 'Anything', maxTokens: 5 },
    })
    expect(text(sampled as { response?: unknown })).toContain('Canned reply')
    const weather = await engine.execute('tools.call', {
      connectionId,
      tool: 'trigger-sampling-request',
      arguments: { prompt: 'The weather?', maxTokens: 5 },
    })
    expect(text(weather as { response?: unknown })).toContain('Sunny')
    const elicited = await engine.execute('tools.call', { connectionId, tool: 'trigger-elicitation-request', arguments: {} })
    expect(text(elicited as { response?: unknown })).toContain('declined')
    const answers = recorder.of('serverRequest', connectionId).filter((e) => e.state === 'answered' && e.method !== 'roots/list')
    expect(answers.map((e) => [e.by, e.source])).toEqual([
      ['script', file],
      ['script', file],
      ['script', '--elicit decline'],
    ])
    expect(recorder.of('serverRequest', connectionId).some((e) => e.state === 'pending')).toBe(false)
  })

  it('a responder module runs only once its content is approved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-responder-'))
    const file = join(dir, 'responder.mjs')
    writeFileSync(file, 'export default (request) => request.method === "sampling/createMessage" ? { text: "from a module" } : undefined\n')
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: async (r) => (r.kind === 'command' ? 'once' : 'no') })
    await expect(engine.createConnection(everything({ responder: { file } }))).rejects.toMatchObject({
      code: 'approval-required',
      details: { approval: { kind: 'hooks', title: 'Run this responder module inside Parallax?', hooks: { path: file } } },
    })
  })
})
