import { afterEach, describe, expect, it } from 'vitest'
import { PRESET_PROFILES, type McpHandshakeEvent, type SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { startStreamableServer } from '../../shared/demo/httpServers'
import { createToolServer } from '../../shared/demo/mcpServers'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startModernHttpServer, type RunningModernServer } from '../fixtures/modernServers'
import { approveAll, fixtureTarget, httpTarget } from '../fixtures/targets'

// The MCP eras against servers built with the 2.x SDK (@modelcontextprotocol/server 2.4.0), over stdio and
// streamable HTTP, each serving 2025 clients too or refusing them (a 2026-only server).

let engine: Engine
let recorder: EventRecorder
let server: RunningModernServer | undefined

function start() {
  engine = new Engine({ host: 'cli', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
  recorder = new EventRecorder(engine)
}

afterEach(async () => {
  await engine?.dispose()
  await server?.close()
  server = undefined
})

const profile = (name: string) => PRESET_PROFILES.find((p) => p.name === name)!

async function connect(target: SavedTarget, profileName?: string) {
  const connection = await engine.createConnection(target, profileName ? profile(profileName) : undefined)
  const opened = await connection.open()
  const handshake = recorder.of('handshake', connection.id).at(-1) as McpHandshakeEvent | undefined
  return { connection, opened, handshake }
}

const frames = (id: string) => recorder.of('frame', id)

describe.each([
  ['stdio', () => fixtureTarget('modern'), () => fixtureTarget('modern', ['--modern-only'])],
  [
    'streamable HTTP',
    async () => httpTarget((server = await startModernHttpServer('stateless')).url),
    async () => httpTarget((server = await startModernHttpServer('reject')).url),
  ],
] as const)('a 2.x server over %s', (_transport, both, only2026) => {
  it('that also serves 2025 clients: the default profile negotiates 2026-07-28 through server/discover, and the keepalive works without ping', async () => {
    start()
    const { connection, opened, handshake } = await connect(await both())
    expect(opened).toBe(true)
    expect(handshake).toMatchObject({
      era: '2026',
      protocolVersion: '2026-07-28',
      requestedProtocolVersion: '2026-07-28',
      serverInfo: { name: 'fixture-modern' },
      serverCapabilities: { tools: { listChanged: true } },
      negotiation: {
        ask: 'negotiate',
        steps: [{ method: 'server/discover', offered: ['2026-07-28'], accepted: true, answer: 'supports 2026-07-28' }],
        summary: expect.stringContaining('negotiated 2026-07-28'),
      },
      rules: { discovery: expect.stringContaining('server/discover') },
    })
    const sent = frames(connection.id).filter((f) => f.direction === 'out')
    expect(sent.map((f) => f.method)).not.toContain('initialize')
    expect(sent[0].method).toBe('server/discover')
    const tools = recorder.of('discovery', connection.id).find((d) => d.method === 'tools/list')
    expect(tools).toMatchObject({ status: 'called', count: 1 })
    expect(await connection.probeNow()).toBe(true)
    const probe = recorder.of('keepalive', connection.id).at(-1)!
    expect(probe).toMatchObject({ probe: 'tools/list', ok: true, rule: expect.stringContaining('no ping') })
    expect(sent.map((f) => f.method)).not.toContain('ping')
  })

  it('that also serves 2025 clients: the mcp-2025 profile speaks the 2025 era to it', async () => {
    start()
    const { opened, handshake, connection } = await connect(await both(), 'mcp-2025')
    expect(opened).toBe(true)
    expect(handshake).toMatchObject({ era: '2025', protocolVersion: '2025-11-25', negotiation: { ask: '2025-only' } })
    expect(frames(connection.id).filter((f) => f.method === 'server/discover')).toHaveLength(0)
    expect(await connection.probeNow()).toBe(true)
  })

  it('that refuses 2025 clients: negotiated in the 2026 era, and the mcp-2025 profile fails saying why', async () => {
    start()
    const modern = await connect(await only2026())
    expect(modern.opened).toBe(true)
    expect(modern.handshake).toMatchObject({ era: '2026', protocolVersion: '2026-07-28' })
    expect(await modern.connection.probeNow()).toBe(true)

    const old = await connect(modern.connection.target, 'mcp-2025')
    expect(old.opened).toBe(false)
    const failed = recorder.of('connection', old.connection.id).at(-1)!
    expect(failed.reason).toMatch(/2026-07-28/)
  })
})

describe('the 2026 era, session by session', () => {
  it('a tool call is a turn with its answer; a method the era does not have is refused before anything is sent', async () => {
    start()
    const { connection } = await connect(fixtureTarget('modern', ['--modern-only']))
    const answer = await connection.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })
    expect(answer).toMatchObject({ outcome: 'result', requestId: expect.anything(), result: { content: [{ text: 'hi (modern era)' }] } })
    // The server's JSON-RPC error reads as in the 2025 era: its code and its own words.
    expect(await connection.request('prompts/get', { name: 'none' })).toMatchObject({
      outcome: 'error',
      error: { code: -32601, message: expect.not.stringMatching(/^MCP error/) },
    })
    const sentBefore = frames(connection.id).filter((f) => f.direction === 'out').length
    await expect(connection.request('ping', undefined)).rejects.toThrow(/ping is not a method of MCP 2026-07-28/)
    expect(frames(connection.id).filter((f) => f.direction === 'out')).toHaveLength(sentBefore)
  })

  it('list changes come on the subscriptions/listen stream the server acknowledged, and refresh the list', async () => {
    start()
    const { connection, handshake } = await connect(fixtureTarget('modern', ['--modern-only', '--grow']))
    expect(handshake?.rules?.listChanged).toMatch(
      /subscriptions\/listen stream \(2026 era\): asked for tools; the server acknowledged tools/,
    )
    const refreshed = await recorder.waitFor(
      (e) => e.type === 'discovery' && e.connectionId === connection.id && e.trigger === 'list_changed',
    )
    expect(refreshed).toMatchObject({ method: 'tools/list', status: 'called', count: 2 })
    const notice = frames(connection.id).find((f) => f.method === 'notifications/tools/list_changed')!
    expect(notice.payload).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/subscriptionId': expect.any(String) } } })
  })

  it('over HTTP too: a tool added on the server reaches the open listen stream', async () => {
    server = await startModernHttpServer('reject')
    start()
    const { connection } = await connect(httpTarget(server.url))
    server.addTool('reverse')
    const refreshed = await recorder.waitFor(
      (e) => e.type === 'discovery' && e.connectionId === connection.id && e.trigger === 'list_changed',
    )
    expect(refreshed).toMatchObject({ method: 'tools/list', status: 'called', count: 2 })
  })

  it('a server without tools is kept alive with server/discover, never ping', async () => {
    start()
    const { connection, handshake } = await connect(fixtureTarget('modern', ['--modern-only', '--prompts-only']))
    expect(handshake?.rules?.keepalive).toMatch(/^server\/discover: the 2026 era has no ping/)
    expect(await connection.probeNow()).toBe(true)
    expect(await connection.probeNow()).toBe(true)
    expect(recorder.of('keepalive', connection.id).map((p) => [p.probe, p.ok])).toEqual([
      ['server/discover', true],
      ['server/discover', true],
    ])
    const probes = frames(connection.id).filter((f) => f.probe)
    expect(probes.map((f) => `${f.direction} ${f.method}`)).toEqual([
      'out server/discover',
      'in server/discover',
      'out server/discover',
      'in server/discover',
    ])
    expect(frames(connection.id).some((f) => f.method === 'ping')).toBe(false)
  })

  it('a log level rides each request (the era has no logging/setLevel)', async () => {
    start()
    const { connection } = await connect(fixtureTarget('modern', ['--modern-only']))
    await connection.setLogLevel('debug')
    await connection.request('tools/list', {})
    const sent = frames(connection.id).findLast((f) => f.direction === 'out' && f.method === 'tools/list')!
    expect(sent.payload).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } } })
    expect(frames(connection.id).some((f) => f.method === 'logging/setLevel')).toBe(false)
  })
})

describe('a 2025 server (the 1.x SDK)', () => {
  it('the default profile offers 2026-07-28 first, then falls back to initialize, and says what was answered', async () => {
    start()
    const { opened, handshake, connection } = await connect(fixtureTarget('growingTools'))
    expect(opened).toBe(true)
    expect(handshake).toMatchObject({
      era: '2025',
      protocolVersion: '2025-11-25',
      negotiation: {
        ask: 'negotiate',
        steps: [
          { method: 'server/discover', offered: ['2026-07-28'], accepted: false, answer: 'error -32601 Method not found' },
          { method: 'initialize', offered: ['2025-11-25'], accepted: true, answer: 'answered 2025-11-25' },
        ],
        summary: expect.stringMatching(/^fell back to the 2025 era/),
      },
      rules: { keepalive: expect.stringMatching(/^tools\/list/) },
    })
    expect(
      frames(connection.id)
        .map((f) => `${f.direction} ${f.method}`)
        .slice(0, 4),
    ).toEqual(['out server/discover', 'in server/discover', 'out initialize', 'in initialize'])
    // The error is the answer: initialize follows it at once, not after the probe's wait (10 s on a pipe).
    const [, refused, initialize] = frames(connection.id)
    expect(initialize.ts - refused.ts).toBeLessThan(1_000)
  })

  it('the mcp-2026 profile fails, saying the server did not take 2026-07-28', async () => {
    start()
    const { opened, connection } = await connect(fixtureTarget('growingTools'), 'mcp-2026')
    expect(opened).toBe(false)
    expect(recorder.of('connection', connection.id).at(-1)?.reason).toMatch(
      /did not take MCP 2026-07-28 \(server\/discover: error -32601 Method not found\), and this profile asks for the 2026 era only/,
    )
    expect(frames(connection.id).some((f) => f.method === 'initialize')).toBe(false)
  })
})

describe('Compare: one server under a 2025 profile and a 2026 profile', () => {
  it('puts the eras side by side: the era and version differ, the catalog is the same', async () => {
    start()
    const target = fixtureTarget('modern')
    const result = await engine.compare({ target, profile: profile('mcp-2025') }, { target, profile: profile('mcp-2026') })
    expect(result.a.profile).toBe('mcp-2025')
    expect(result.b.profile).toBe('mcp-2026')
    const field = (name: string) => result.handshake.find((d) => d.field === name)
    expect(field('era')).toMatchObject({ a: '2025', b: '2026' })
    expect(field('protocolVersion')).toMatchObject({ a: '2025-11-25', b: '2026-07-28' })
    expect(result.catalog.same.map((s) => `${s.kind}:${s.name}`)).toEqual(['tool:echo'])
    expect(result.catalog.added).toEqual([])
    expect(result.catalog.removed).toEqual([])
  })

  it('a 2026-only server cannot be reached under the 2025 profile, and the compare says why', async () => {
    start()
    const target = fixtureTarget('modern', ['--modern-only'])
    await expect(engine.compare({ target, profile: profile('mcp-2025') }, { target, profile: profile('mcp-2026') })).rejects.toThrow(
      /speaks only 2026-07-28/,
    )
  })
})

describe('a server that asks (elicitation) in each era', () => {
  it.each([
    ['2026', 'an input_required answer', undefined],
    ['2025', 'elicitation/create', 'mcp-2025'],
  ])('the %s era (the server asks in %s): the person is asked and answers, and the call completes', async (era, _how, profileName) => {
    engine = new Engine({ host: 'web', builtIns: builtInDemos(), approver: approveAll, defaults: { keepaliveIntervalMs: 60_000 } })
    recorder = new EventRecorder(engine)
    const { connection, handshake } = await connect(fixtureTarget('modern', ['--asks']), profileName)
    expect(handshake?.era).toBe(era)
    const call = connection.request('tools/call', { name: 'deploy', arguments: { env: 'prod' } })
    const pending = await recorder.waitFor(
      (e) => e.type === 'serverRequest' && e.connectionId === connection.id && e.state === 'pending' && e.method === 'elicitation/create',
    )
    if (pending.type !== 'serverRequest') throw new Error('unreachable')
    expect(pending.params).toMatchObject({ message: 'Deploy to prod?' })
    connection.answerServerRequest(pending.id, { result: { action: 'accept', content: { confirm: true } } })
    expect(await call).toMatchObject({ outcome: 'result', result: { content: [{ text: 'deployed to prod' }] } })
    if (era === '2026') {
      // Two rounds of tools/call on the wire: the first answered input_required, the retry carried the answer.
      const calls = frames(connection.id).filter((f) => f.method === 'tools/call' && f.direction === 'in')
      expect(calls.map((f) => (f.payload as { result?: { resultType?: string } }).result?.resultType)).toEqual([
        'input_required',
        'complete',
      ])
    }
  })
})

describe('2025 servers that will not hear of server/discover', () => {
  it('one that stays silent: after the probe waits (bounded), initialize on the same pipe, and the handshake says so', async () => {
    engine = new Engine({
      host: 'cli',
      builtIns: builtInDemos(),
      approver: approveAll,
      defaults: { keepaliveIntervalMs: 60_000, connectTimeoutMs: 1_500 },
    })
    recorder = new EventRecorder(engine)
    const { opened, handshake, connection } = await connect(fixtureTarget('strict2025', ['silent']))
    expect(opened).toBe(true)
    expect(handshake).toMatchObject({
      era: '2025',
      negotiation: {
        steps: [{ method: 'server/discover', accepted: false, answer: 'no answer within 1500 ms' }, { method: 'initialize' }],
      },
    })
    const pids = new Set(recorder.of('connection', connection.id).flatMap((e) => (e.pid ? [e.pid] : [])))
    expect(pids.size).toBe(1)
    expect(await connection.probeNow()).toBe(true)
  })

  it('one that exits on it: started again for the 2025 era, and a keepalive reconnect does not probe it again', async () => {
    start()
    const { opened, handshake, connection } = await connect(fixtureTarget('strict2025', ['exits']))
    expect(opened).toBe(true)
    expect(handshake).toMatchObject({
      era: '2025',
      negotiation: {
        steps: [{ method: 'server/discover', accepted: false, answer: 'the server process exited with code 3' }, { method: 'initialize' }],
      },
    })
    expect(recorder.of('log', connection.id).map((l) => l.text)).toContainEqual(
      expect.stringMatching(/exited with code 3 on server\/discover; starting it again for the 2025 era/),
    )
    expect(await connection.probeNow()).toBe(true)

    // The server goes down; keepalive brings it back with initialize alone, saying why.
    const pid = recorder.of('connection', connection.id).findLast((e) => e.pid)!.pid!
    process.kill(pid, 'SIGKILL')
    await recorder.waitForCount((e) => e.type === 'handshake' && e.connectionId === connection.id, 2, 20_000)
    const again = recorder.of('handshake', connection.id).at(-1) as McpHandshakeEvent
    expect(again.negotiation?.steps.map((s) => s.method)).toEqual(['initialize'])
    expect(again.negotiation?.summary).toMatch(/as when this connection was first made .*: a reconnect does not offer 2026-07-28 again/)
  })
})

describe('the mcp-2026 profile against a 2025 server over HTTP', () => {
  it('fails with what server/discover was answered, and nothing about legacy SSE', async () => {
    const legacy = await startStreamableServer(createToolServer)
    try {
      start()
      const { opened, connection } = await connect(httpTarget(legacy.url), 'mcp-2026')
      expect(opened).toBe(false)
      const reason = recorder.of('connection', connection.id).at(-1)?.reason
      expect(reason).toMatch(/did not take MCP 2026-07-28 \(server\/discover: HTTP 400 .*\), and this profile asks for the 2026 era only/)
      expect(reason).not.toMatch(/SSE/)
      expect(frames(connection.id).some((f) => f.method === 'initialize')).toBe(false)
    } finally {
      await legacy.close()
    }
  })
})
