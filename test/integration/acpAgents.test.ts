import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AcpHandshakeEvent, AcpPromptAnswer, ConnectionEvent, SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { acpTarget } from '../fixtures/acp/targets'
import { EventRecorder } from '../fixtures/events'
import { approveAll } from '../fixtures/targets'

let engine: Engine | undefined
const folders: string[] = []
afterEach(async () => {
  await engine?.dispose()
  engine = undefined
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

async function open(target: SavedTarget & { origin: 'user' }, profile?: string, askUser = false) {
  engine = new Engine({
    host: 'cli',
    askUser,
    builtIns: builtInDemos(),
    approver: approveAll,
    defaults: { keepaliveIntervalMs: 3_600_000 },
  })
  const recorder = new EventRecorder(engine)
  const { connectionId } = await engine.invoke('connections.open', { target, ...(profile && { profile }) })
  const waited = await engine.invoke('connections.wait', { connectionId })
  return { e: engine, recorder, connectionId, waited }
}

async function workspace(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'parallax-acp-'))
  folders.push(folder)
  return folder
}

describe('ACP agents over stdio (SDK v1 stable)', () => {
  it('shows the handshake, the session and every message as a frame, and folds a prompt turn into the conversation', async () => {
    const { e, recorder, connectionId, waited } = await open(acpTarget('stableAgent', 'basic'))
    expect(waited.connected).toBe(true)
    const handshake = recorder.of('handshake', connectionId)[0] as AcpHandshakeEvent
    expect(handshake.protocol).toBe('acp')
    expect(handshake.requestedProtocolVersion).toBe(1)
    expect(handshake.protocolVersion).toBe(1)
    expect(handshake.agentInfo?.name).toBe('stable-fixture')
    expect(handshake.agentCapabilities).toMatchObject({
      loadSession: false,
      promptCapabilities: { image: true },
      mcpCapabilities: { http: true },
    })
    expect(handshake.authMethods.map((m) => m.id)).toEqual(['none'])
    // The default profile wants fs, but this target has no workspace: fs is not offered, and the handshake says why.
    expect(handshake.clientCapabilities).toMatchObject({ fs: { readTextFile: false, writeTextFile: false }, terminal: false })
    expect(handshake.notOffered?.join(' ')).toMatch(/no workspace folder/)
    expect(handshake.session).toMatchObject({ sessionId: 'stable-1', how: 'new', mcpServers: [] })
    expect(handshake.keepalive).toMatch(/no ping/)

    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'what is the answer?' } })
    const answer = result.response as AcpPromptAnswer
    expect(result.state).toBe('end_turn')
    expect(answer.text).toBe('The answer is 42.')
    expect(answer.thoughts).toBe('Thinking about the question.')
    expect(answer.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: 't1', name: 'lookup', status: 'completed', rawInput: { q: 1 }, rawOutput: { answer: 42 } }),
    ])
    expect(answer.data).toEqual({ answer: 42 })

    const frames = recorder.of('frame', connectionId)
    const methods = frames.map((f) => `${f.direction} ${f.kind} ${f.method}`)
    expect(methods).toContain('out request initialize')
    expect(methods).toContain('in response session/new')
    expect(frames.filter((f) => f.method === 'session/update').length).toBe(8)
    const promptAnswer = frames.find((f) => f.method === 'session/prompt' && f.kind === 'response')!
    expect(promptAnswer.latencyMs).toBeGreaterThan(0)
    expect(frames.every((f) => f.protocol === 'acp' && f.transport === 'stdio')).toBe(true)
    expect(frames.find((f) => f.subject === 'tool_call lookup')).toBeTruthy()

    const messages = recorder.of('conversation', connectionId).map((c) => c.message)
    expect(messages.map((m) => `${m.role}:${m.metadata?.kind}:${m.metadata?.state ?? ''}`)).toEqual([
      'user:message:',
      'agent:thought:',
      'agent:plan:',
      'agent:tool:pending',
      'agent:tool:in_progress',
      'agent:tool:completed',
      'agent:message:',
      'agent:status:end_turn',
    ])
    expect(messages.every((m) => m.metadata?.turn === 1)).toBe(true)
  })

  it('takes a stop reason short of finishing as a failed turn', async () => {
    const { e, connectionId } = await open(acpTarget('stableAgent', 'basic'))
    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'please refuse' } })
    expect(result.state).toBe('refusal')
    const { isFailedTurn, turnOutcome } = await import('../../shared/contract')
    expect(isFailedTurn(result.state)).toBe(true)
    expect(turnOutcome('refusal')).toBe('failed')
    expect(turnOutcome('end_turn')).toBe('completed')
  })

  it('says an agent wants a sign-in before any session, with its auth methods', async () => {
    const { waited, recorder, connectionId } = await open(acpTarget('stableAgent', 'auth'))
    expect(waited.connected).toBe(false)
    const failed = recorder.of('connection', connectionId).find((c) => c.state === 'failed')
    expect(failed?.reason).toMatch(/wants you to sign in first \(its auth methods: No sign-in\)/)
    expect((recorder.of('handshake', connectionId)[0] as AcpHandshakeEvent).session).toBeUndefined()
  })

  it('keeps lines that are no JSON-RPC as refused frames, says so, and goes on', async () => {
    const { e, recorder, connectionId } = await open(acpTarget('stableAgent', 'garbage'))
    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'hi' } })
    expect(result.state).toBe('end_turn')
    const refused = recorder.of('frame', connectionId).filter((f) => f.truncated?.refused)
    expect(refused.map((f) => f.truncated?.refused)).toEqual([
      expect.stringMatching(/not JSON/),
      expect.stringMatching(/no JSON-RPC message/),
    ])
    expect(refused[0].payload).toContain('this is not json')
    expect(recorder.of('log', connectionId).some((l) => l.level === 'warn' && /did not hand on/.test(l.text))).toBe(true)
  })

  it('ends a turn whose agent crashed as a failed one, says why, and restarts the agent with a new session (bounded)', async () => {
    const { e, recorder, connectionId } = await open(
      acpTarget('stableAgent', 'crash', { options: { reconnectBaseDelayMs: 50, reconnectAttempts: 2 } }),
    )
    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'go' } })
    expect(result.state).toBe('error')
    expect((result.response as AcpPromptAnswer).error?.message).toBeTruthy()
    const messages = recorder.of('conversation', connectionId).map((c) => c.message)
    expect(messages.find((m) => m.role === 'agent' && m.metadata?.kind === 'message')?.content).toBe('starting… ')
    expect(messages.at(-1)?.metadata).toMatchObject({ kind: 'error', state: 'error', turn: 1 })
    const reconnecting = await recorder.waitFor(
      (ev): ev is ConnectionEvent => ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'reconnecting',
    )
    expect(reconnecting.reason).toMatch(/exited with code 3/)
    expect(reconnecting.cause?.command).toContain('stableAgent.ts crash')
    const back = await recorder.waitFor(
      (ev): ev is ConnectionEvent =>
        ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'connected' && !!ev.reconnected,
    )
    expect(back.reconnected?.cause).toMatch(/exited with code 3/)
    expect(recorder.of('handshake', connectionId)).toHaveLength(2)
  })
})

describe('consent', () => {
  it('runs an ACP agent only once its command is approved, as an MCP command', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 3_600_000 } })
    const target = acpTarget('stableAgent', 'basic')
    const error = await engine.invoke('connections.open', { target }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'approval-required' })
    const request = (error as { details: { approval: { command?: { command: string; args: string[] } } } }).details.approval
    expect(request.command?.args.at(-1)).toBe('basic')
  })

  it('binds the approval to the workspace too: the folder the agent may write in changing asks again', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 3_600_000 } })
    const [first, second] = [await workspace(), await workspace()]
    const refusal = async (folder: string) =>
      (await engine!
        .invoke('connections.open', { target: acpTarget('stableAgent', 'basic', { workspace: folder }) })
        .catch((e: unknown) => e)) as {
        code: string
        details: { approval: { fingerprint: string; title: string; command?: { workspace?: string }; changes?: string[] } }
      }
    const asked = await refusal(first)
    expect(asked.details.approval.command?.workspace).toBe(first)
    expect(asked.details.approval.title).toContain(first)
    await engine.invoke('approvals.grant', { fingerprint: asked.details.approval.fingerprint })
    const { connectionId } = await engine.invoke('connections.open', { target: acpTarget('stableAgent', 'basic', { workspace: first }) })
    expect((await engine.invoke('connections.wait', { connectionId })).connected).toBe(true)
    const again = await refusal(second)
    expect(again.code).toBe('approval-required')
    expect(again.details.approval.changes).toEqual([`workspace: ${first} → ${second}`])
  })
})

describe('the client role: permissions, files, terminals', () => {
  it('asks the user for permission, writes the file inside the workspace and refuses one outside it', async () => {
    const folder = await workspace()
    const { e, recorder, connectionId } = await open(acpTarget('stableAgent', 'write', { workspace: folder }), 'default', true)
    const handshake = recorder.of('handshake', connectionId)[0] as AcpHandshakeEvent
    expect(handshake.clientCapabilities).toMatchObject({ fs: { readTextFile: true, writeTextFile: true } })
    expect(handshake.workspace).toBe(folder)
    const sent = e.invoke('conversation.send', { connectionId, turn: { text: 'write it' } })
    const pending = await recorder.waitFor((ev) => ev.type === 'serverRequest' && ev.state === 'pending')
    if (pending.type !== 'serverRequest') throw new Error('no request')
    expect(pending.method).toBe('session/request_permission')
    expect(() => e.answerServerRequest(connectionId, pending.id, { result: { optionId: 'maybe' } })).toThrow(
      /choose one of the agent's options \(yes, no\)/,
    )
    e.answerServerRequest(connectionId, pending.id, { result: { optionId: 'yes' } })
    const result = await sent
    expect((result.response as AcpPromptAnswer).text).toMatch(/^written; refused: .*"\.\."/)
    expect(await readFile(join(folder, 'notes.md'), 'utf8')).toBe('hello from the agent\n')
    await expect(stat(join(folder, '..', 'escape.md'))).rejects.toThrow()
    const requests = recorder.of('serverRequest', connectionId)
    expect(requests.map((r) => `${r.method} ${r.state} ${r.by ?? ''}`)).toEqual([
      'session/request_permission pending ',
      'session/request_permission answered user',
      'fs/write_text_file answered parallax',
      'fs/write_text_file failed parallax',
    ])
  })

  it('answers permission with the policy when nobody is there to ask, and refuses without one', async () => {
    const folder = await workspace()
    const allowed = await open(acpTarget('stableAgent', 'write', { workspace: folder, responder: { permission: 'allow' } }))
    const result = await allowed.e.invoke('conversation.send', { connectionId: allowed.connectionId, turn: { text: 'write' } })
    expect((result.response as AcpPromptAnswer).text).toMatch(/^written/)
    await engine!.dispose()
    const refused = await open(acpTarget('stableAgent', 'write', { workspace: await workspace() }))
    const again = await refused.e.invoke('conversation.send', { connectionId: refused.connectionId, turn: { text: 'write' } })
    expect((again.response as AcpPromptAnswer).text).toBe('not written')
    const answered = refused.recorder.of('serverRequest', refused.connectionId).find((r) => r.state === 'answered')
    expect(answered?.reason).toMatch(/Deny: nobody is here to allow it/)
  })

  it('reads a file back within the workspace', async () => {
    const folder = await workspace()
    await (await import('node:fs/promises')).writeFile(join(folder, 'notes.md'), 'kept\n')
    const { e, connectionId } = await open(acpTarget('stableAgent', 'read', { workspace: folder }))
    const result = await e.invoke('conversation.send', { connectionId, turn: { text: 'read' } })
    expect((result.response as AcpPromptAnswer).text).toBe('read: kept\n')
  })

  it('runs a command in a terminal only when the profile offers it and the user approves it', async () => {
    const folder = await workspace()
    const without = await open(acpTarget('stableAgent', 'terminal', { workspace: folder }))
    const refused = await without.e.invoke('conversation.send', { connectionId: without.connectionId, turn: { text: 'run' } })
    expect((refused.response as AcpPromptAnswer).text).toMatch(/^no terminal: .*Method not found/i)
    expect(without.recorder.of('log', without.connectionId).some((l) => l.oddity && /did not offer terminal/.test(l.text))).toBe(true)
    await engine!.dispose()

    const { e, recorder, connectionId } = await open(acpTarget('stableAgent', 'terminal', { workspace: folder }), 'full', true)
    const sent = e.invoke('conversation.send', { connectionId, turn: { text: 'run' } })
    const pending = await recorder.waitFor((ev) => ev.type === 'serverRequest' && ev.state === 'pending')
    if (pending.type !== 'serverRequest') throw new Error('no request')
    expect(pending.method).toBe('terminal/create')
    expect((pending.params as { command: string }).command).toBe(process.execPath)
    e.answerServerRequest(connectionId, pending.id, { result: {} })
    expect(((await sent).response as AcpPromptAnswer).text).toBe('exit 0: 42')
  })
})

describe('did the agent honour requested_tool_categories?', () => {
  const compare = async (target: SavedTarget & { origin: 'user' }, hinted: Record<string, unknown>, prompt?: string) => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
    return engine.invoke('compare.run', {
      a: { target, profile: 'minimal' },
      b: { target, profile: hinted },
      ...(prompt && { prompt }),
    })
  }
  const hint = (via: ('field' | 'meta')[]) => ({
    name: 'web-hint',
    acp: { requestedToolCategories: ['web', 'media_generation'], hintVia: via },
  })

  it('an agent that honours the hint (unstable entrypoint) exposes and uses the tools of the categories asked for', async () => {
    const result = await compare(acpTarget('hintAgent', 'default'), hint(['field', 'meta']), 'do it')
    expect(result.handshake.filter((h) => h.origin === 'client').map((h) => h.field)).toContain(
      'clientCapabilities.requested_tool_categories',
    )
    const onlyB = result.catalog.added.map((x) => `${x.kind}:${x.name}`).sort()
    expect(onlyB).toEqual(['command:generate_image', 'command:web_search', 'used:generate_image', 'used:web_search'])
    expect(result.catalog.same.map((x) => `${x.kind}:${x.name}`).sort()).toEqual(['command:read_file', 'used:read_file'])
    expect(result.catalog.added.every((x) => x.frames.b !== undefined)).toBe(true)
  })

  it('the same agent ignores a hint it does not read (only in _meta), and so does an agent on the stable schema', async () => {
    const metaOnly = await compare(acpTarget('hintAgent', 'default'), hint(['meta']))
    expect(metaOnly.catalog.added).toEqual([])
    expect(metaOnly.handshake.filter((h) => h.origin === 'client').map((h) => h.field)).toContain('clientCapabilities._meta')
    await engine!.dispose()
    const stable = await compare(acpTarget('stableAgent', 'basic'), hint(['field', 'meta']), 'look it up')
    expect(stable.catalog.added).toEqual([])
    expect(stable.catalog.removed).toEqual([])
    expect(stable.catalog.same.map((x) => `${x.kind}:${x.name}`)).toEqual(['used:lookup'])
    expect(stable.handshake.filter((h) => h.origin === 'agent')).toEqual([])
  })

  it('the demo ACP face honours the hint as its MCP face does, and pairs its commands with the MCP tools across protocols', async () => {
    engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 3_600_000 } })
    const hinted = await engine.invoke('compare.run', {
      a: { targetId: 'demo:acp', profile: 'minimal' },
      b: { targetId: 'demo:acp', profile: 'hinted' },
    })
    expect(hinted.catalog.added.map((x) => x.name).sort()).toEqual(['forecast_delivery', 'preview_creative'])
    const across = await engine.invoke('compare.run', { a: { targetId: 'demo:tools' }, b: { targetId: 'demo:acp' } })
    expect(across.catalog.same.map((x) => x.name).sort()).toEqual([
      'create_media_buy',
      'get_adcp_capabilities',
      'get_media_buys',
      'get_products',
      'list_creative_formats',
    ])
    expect(across.catalog.added).toEqual([])
  })
})

describe('the demo ACP agent', () => {
  it('books what the prompt asks for: the product, budget and brand it names, not the best match for the brief', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 3_600_000 } })
    const recorder = new EventRecorder(engine)
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:acp' })
    await engine.invoke('connections.wait', { connectionId })
    const book = async (text: string) => {
      const sent = engine!.invoke('conversation.send', { connectionId, turn: { text } })
      const asked = await recorder.waitFor(
        (ev) =>
          ev.type === 'serverRequest' &&
          ev.state === 'pending' &&
          !recorder.events.some((e) => e.type === 'serverRequest' && e.id === ev.id && e.state !== 'pending'),
      )
      if (asked.type !== 'serverRequest') throw new Error('no permission asked')
      engine!.answerServerRequest(connectionId, asked.id, { result: { optionId: 'allow' } })
      const answer = (await sent).response as AcpPromptAnswer
      return { answer, order: answer.toolCalls.find((c) => c.name === 'create_media_buy')?.rawInput }
    }
    // The product by its id, the budget and the brand, as the prompt names them: an AdCP create_media_buy.
    const first = await book('Book prod_mobile_run for our sports video campaign: 2,500 USD, for acmeoutdoor.example')
    expect(first.order).toMatchObject({
      brand: { domain: 'acmeoutdoor.example' },
      start_time: 'asap',
      packages: [{ product_id: 'prod_mobile_run', pricing_option_id: 'cpm_auction', budget: 2500 }],
    })
    expect(first.answer.text).toMatch(/^You asked for Mobile run of network \(prod_mobile_run\)\. .*Booked as mb_0001\.$/)
    expect(first.answer.data).toMatchObject({ media_buy_id: 'mb_0001', packages: [{ product_id: 'prod_mobile_run', budget: 2500 }] })
    // By its name, though the brief's best match is another product; what it does not name (the brand) is a placeholder.
    const second = await book('Book the Outdoor lifestyle video spot for our live sports pre-roll fans, $9,000')
    expect(second.order).toMatchObject({
      brand: { domain: 'buyer.example' },
      packages: [{ product_id: 'prod_outdoor_video', pricing_option_id: 'cpm_auction', budget: 9000 }],
    })
    const search = second.answer.toolCalls.find((c) => c.name === 'get_products')?.rawOutput as { products: { product_id: string }[] }
    expect(search.products[0].product_id).toBe('prod_sports_video')
  })
})

describe('sessions and cancel', () => {
  it('loads the session again after the agent restarted, where it offers session/load, and shows the history it replays', async () => {
    const folder = await workspace()
    const target = acpTarget('stableAgent', 'load', {
      env: { ACP_FIXTURE_STATE: join(folder, 'state.json') },
      options: { reconnectBaseDelayMs: 50, reconnectAttempts: 2 },
    })
    const { e, recorder, connectionId } = await open(target)
    await e.invoke('conversation.send', { connectionId, turn: { text: 'remember the launch' } })
    await e.invoke('conversation.send', { connectionId, turn: { text: 'now die' } })
    await recorder.waitFor(
      (ev): ev is ConnectionEvent =>
        ev.type === 'connection' && ev.connectionId === connectionId && ev.state === 'connected' && !!ev.reconnected,
    )
    const [, loaded] = recorder.of('handshake', connectionId) as AcpHandshakeEvent[]
    expect(loaded.session).toMatchObject({ sessionId: 'stable-1', how: 'load' })
    expect(loaded.session?.reason).toMatch(/loaded again/)
    const replayed = recorder.of('conversation', connectionId).filter((c) => c.message.metadata?.replayed)
    expect(replayed.map((c) => `${c.message.role}: ${c.message.content}`)).toEqual([
      'user: remember the launch',
      'agent: heard 1: remember the launch',
      'user: now die',
      'agent: heard 2: now die',
    ])
    const third = await e.invoke('conversation.send', { connectionId, turn: { text: 'still there?' } })
    expect((third.response as AcpPromptAnswer).text).toBe('heard 3: still there?')
  })

  it('cancels a turn with session/cancel: the permission still asked is answered cancelled, and the turn ends cancelled', async () => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), defaults: { keepaliveIntervalMs: 3_600_000 } })
    const recorder = new EventRecorder(engine)
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'demo:acp' })
    await engine.invoke('connections.wait', { connectionId })
    const sent = engine.invoke('conversation.send', { connectionId, turn: { text: 'book a video product' } })
    await recorder.waitFor((ev) => ev.type === 'serverRequest' && ev.state === 'pending')
    expect(await engine.invoke('connections.cancel', { connectionId, requestId: 'prompt' })).toEqual({ cancelled: true })
    const result = await sent
    expect(result.state).toBe('cancelled')
    expect(recorder.of('serverRequest', connectionId).at(-1)).toMatchObject({ method: 'session/request_permission', state: 'cancelled' })
    expect(recorder.of('frame', connectionId).some((f) => f.direction === 'out' && f.method === 'session/cancel')).toBe(true)
    const { turnOutcome } = await import('../../shared/contract')
    expect(turnOutcome(result.state)).toBe('canceled')
  })
})
