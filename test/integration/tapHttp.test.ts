import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Role, type Message } from '@a2a-js/sdk'
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MediaSalesExecutor, startMediaSalesAgent, textPart } from '../../shared/demo/a2aAgent'
import { startSseServer, startStreamableServer, type RunningServer } from '../../shared/demo/httpServers'
import { startExtendedCardAgent } from '../fixtures/a2aAgents'
import { startV03Agent } from '../fixtures/a2aV03Agent'
import { startOAuthMcpServer } from '../fixtures/oauthServers'
import { CLI } from '../fixtures/cli'

const SECRET = `Bearer tap-secret-${randomUUID()}`

interface RunningTap {
  /** Where the host goes: the proxy's origin and the upstream endpoint's path. */
  url: string
  origin: string
  process: ChildProcess
  stderr: () => string
  /** Stops the tap as a user does (SIGTERM) and waits for it to exit. */
  stop(): Promise<number | null>
}

const stops: (() => Promise<unknown>)[] = []
const folders: string[] = []

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-taphttp-'))
  folders.push(dir)
  return dir
}

async function startTap(dataDir: string, to: string, ...extra: string[]): Promise<RunningTap> {
  const child = spawn(process.execPath, [CLI, 'tap', '--listen', '127.0.0.1:0', '--to', to, '--json', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
  })
  let stderr = ''
  let stdout = ''
  child.stderr.on('data', (c) => (stderr += c))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c) => {
      stdout += c
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0])
    })
    void exited.then((code) => reject(new Error(`the tap exited (${code}) before listening: ${stderr}`)))
  })
  const said = JSON.parse(line) as { format: string; listening: string; url: string; to: string }
  expect(said.format).toBe('parallax.tap/1')
  expect(said.to).toBe(to)
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    return exited
  }
  stops.push(stop)
  return { url: said.url, origin: said.listening, process: child, stderr: () => stderr, stop }
}

/** Every event the tap kept, from the sessions folder, in order. */
function sessionEvents(dataDir: string): Record<string, unknown>[] {
  const root = join(dataDir, 'sessions')
  const events: Record<string, unknown>[] = []
  for (const session of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const text = readFileSync(join(root, session.name, 'events.jsonl'), 'utf8')
    for (const line of text.split('\n')) if (line.trim()) events.push(JSON.parse(line) as Record<string, unknown>)
  }
  return events
}

/** Every file of a folder, as text, for a secret that must not be there. */
function everything(dir: string): string {
  let all = ''
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) all += readFileSync(join(entry.parentPath, entry.name), 'utf8')
  return all
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'tapped-server', version: '1.2.3' }, { capabilities: { tools: { listChanged: true } } })
  server.registerTool('echo', { description: 'Says it back', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }))
  server.registerTool('announce', { description: 'Tells the host its tools changed' }, async () => {
    // Not tied to the call: it goes on the host's GET stream.
    setTimeout(() => void server.server.sendToolListChanged().catch(() => {}), 20)
    return { content: [{ type: 'text', text: 'announced' }] }
  })
  return server
}

function withSecret(headers: HeadersInit | undefined): Headers {
  const out = new Headers(headers)
  out.set('authorization', SECRET)
  return out
}

/** A host's session with an MCP server: tools listed, a call, a notification waited for. */
async function mcpHost(url: string, legacy = false) {
  const client = new Client({ name: 'tap-test-host', version: '4.5.6' })
  const requestInit = { headers: { Authorization: SECRET } }
  const transport = legacy
    ? new SSEClientTransport(new URL(url), {
        requestInit,
        eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: withSecret(init?.headers) }) },
      })
    : new StreamableHTTPClientTransport(new URL(url), { requestInit })
  const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()))
  await client.connect(transport)
  const tools = await client.listTools()
  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello through the tap' } })
  const announced = await client.callTool({ name: 'announce', arguments: {} })
  await changed
  // A careful host lists the tools again when told they changed.
  const relisted = await client.listTools()
  if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession()
  await client.close()
  return { tools, echoed, announced, relisted }
}

describe('parallax tap --listen: Parallax failing on its side', () => {
  it('a data folder Parallax cannot write: the host’s session is relayed all the same, and the failure said once', async () => {
    const server: RunningServer = await startStreamableServer(mcpServer)
    stops.push(() => server.close())
    const data = tempDir()
    writeFileSync(join(data, 'sessions'), 'a file where the sessions folder should be')
    const tap = await startTap(data, server.url)
    const client = new Client({ name: 'host', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(tap.url)))
    expect(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).toMatchObject({
      content: [{ type: 'text', text: 'echo: still here' }],
    })
    await client.close()
    expect(tap.stderr().match(/parallax tap: cannot keep the session/g)).toHaveLength(1)
  })
})

describe('parallax tap --listen: hold in flight', () => {
  it('a held request goes on when released (edited here), a dropped one cuts its exchange, the rest pass', async () => {
    const server: RunningServer = await startStreamableServer(mcpServer)
    stops.push(() => server.close())
    const data = tempDir()
    const tap = await startTap(data, server.url, '--hold-tool', 'echo', '--hold-timeout', '60000')
    const client = new Client({ name: 'held-host', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(tap.url)))
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo') // not held: another method
    const holds = () => sessionEvents(data).filter((e) => e.type === 'hold') as { state: string; holdId?: number; message?: unknown }[]
    const control = () => {
      const sessions = join(data, 'sessions')
      return join(
        sessions,
        readdirSync(sessions).find((name) => /^\d{8}T/.test(name))!,
        'control.jsonl',
      )
    }

    const first = client.callTool({ name: 'echo', arguments: { text: 'as sent' } })
    await expect.poll(() => holds().filter((h) => h.state === 'held').length, { timeout: 10_000 }).toBe(1)
    const held = holds().find((h) => h.state === 'held')!
    const edited = { ...(held.message as object), params: { name: 'echo', arguments: { text: 'edited on the way' } } }
    appendFileSync(control(), `${JSON.stringify({ release: held.holdId, message: edited })}\n`)
    expect(await first).toMatchObject({ content: [{ type: 'text', text: 'echo: edited on the way' }] })

    const second = client.callTool({ name: 'echo', arguments: { text: 'dropped' } }).then(
      () => 'answered',
      () => 'failed',
    )
    await expect.poll(() => holds().filter((h) => h.state === 'held').length, { timeout: 10_000 }).toBe(2)
    appendFileSync(control(), `${JSON.stringify({ drop: 2 })}\n`)
    expect(await second).toBe('failed')
    await expect.poll(() => holds().map((h) => h.state), { timeout: 5_000 }).toEqual(['breakpoints', 'held', 'released', 'held', 'dropped'])
    await client.close()
  })
})

describe('parallax tap --listen: MCP over HTTP', () => {
  it('relays a streamable HTTP session (POST, the GET stream) with the same results as going direct, and keeps it as an observed session', async () => {
    const server: RunningServer = await startStreamableServer(mcpServer)
    stops.push(() => server.close())
    const data = tempDir()
    const record = join(tempDir(), 'tapped.jsonl')
    const tap = await startTap(data, server.url, '--name', 'tapped', '--record', record)
    expect(tap.url).toBe(`${tap.origin}/mcp`)
    expect(tap.stderr()).toContain(tap.url)

    const direct = await mcpHost(server.url)
    const tapped = await mcpHost(tap.url)
    expect(tapped).toEqual(direct)
    expect(await tap.stop()).toBe(0)

    const events = sessionEvents(data)
    const frames = events.filter((e) => e.type === 'frame') as {
      direction: string
      method?: string
      kind: string
      transport: string
      http?: { method: string; url: string; status?: number; headers?: Record<string, string> }
    }[]
    expect(frames.every((f) => f.transport === 'streamable-http')).toBe(true)
    const sent = frames.filter((f) => f.direction === 'out').map((f) => f.method)
    expect(sent).toEqual(expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']))
    const changed = frames.find((f) => f.method === 'notifications/tools/list_changed')!
    expect(changed.direction).toBe('in')
    expect(changed.http).toMatchObject({ method: 'GET', url: server.url, status: 200 })
    const call = frames.find((f) => f.direction === 'in' && f.method === 'tools/call')!
    expect(call.http).toMatchObject({ method: 'POST', url: server.url, status: 200 })
    expect(call.http!.headers!['mcp-session-id']).toBeTruthy()
    const asked = frames.find((f) => f.direction === 'out' && f.method === 'tools/list')!
    expect(asked.http!.headers!.authorization).toBe('[redacted]')

    expect(events.some((e) => e.type === 'log' && String(e.text).startsWith('the host ended its MCP session (DELETE /mcp)'))).toBe(true)
    expect(events.filter((e) => e.type === 'log' && e.about === 'host')).toEqual([])
    const handshake = events.find((e) => e.type === 'handshake') as { observed?: boolean; clientInfo: { name: string }; transport: string }
    expect(handshake).toMatchObject({
      observed: true,
      protocol: 'mcp',
      transport: 'streamable-http',
      clientInfo: { name: 'tap-test-host' },
    })
    const connection = events.find((e) => e.type === 'connection' && e.state === 'connected') as {
      owner: { observed: Record<string, unknown> }
    }
    expect(connection.owner.observed).toMatchObject({
      via: 'http',
      listen: tap.origin,
      upstream: server.url,
      host: { name: 'tap-test-host' },
    })
    const turns = events.filter((e) => e.type === 'conversation').map((e) => e.message as { role: string; content: string })
    expect(turns.some((m) => m.content.includes('echo: hello through the tap'))).toBe(true)
    expect(events.some((e) => e.type === 'discovery' && e.method === 'tools/list' && e.status === 'called')).toBe(true)

    // The secret went to the server (the host sent it) and is nowhere Parallax wrote.
    const secret = SECRET.split(' ')[1]
    expect(everything(data)).not.toContain(secret)
    expect(readFileSync(record, 'utf8')).not.toContain(secret)
    expect(readFileSync(record, 'utf8')).toContain('tools/call')
  })

  it('relays legacy SSE: the endpoint event keeps the host on the proxy, and the session is read as sse', async () => {
    const server = await startSseServer(mcpServer)
    stops.push(() => server.close())
    const data = tempDir()
    const tap = await startTap(data, server.url)
    const direct = await mcpHost(server.url, true)
    const tapped = await mcpHost(tap.url, true)
    expect(tapped).toEqual(direct)
    expect(await tap.stop()).toBe(0)
    const events = sessionEvents(data)
    const frames = events.filter((e) => e.type === 'frame') as {
      method?: string
      transport: string
      direction: string
      http?: { url: string }
    }[]
    expect(frames.every((f) => f.transport === 'sse')).toBe(true)
    const posted = frames.find((f) => f.direction === 'out' && f.method === 'tools/call')!
    expect(new URL(posted.http!.url).pathname).toBe('/messages')
    expect(events.find((e) => e.type === 'handshake')).toMatchObject({ transport: 'sse', observed: true })
    expect(events.filter((e) => e.type === 'log' && e.about === 'host')).toEqual([])
    expect(everything(data)).not.toContain(SECRET.split(' ')[1])
  })

  it('says when the host leaves out the session id the server gave it, or the protocol version it agreed', async () => {
    const server = await startStreamableServer(mcpServer)
    stops.push(() => server.close())
    const data = tempDir()
    const tap = await startTap(data, server.url)
    const post = (body: object, headers: Record<string, string> = {}) =>
      fetch(tap.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      })
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'careless-host', version: '0.1' } },
    })
    const sessionId = initialized.headers.get('mcp-session-id')!
    await initialized.text()
    await (
      await post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      )
    ).text()
    await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': sessionId })).text()
    await (await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' })).text()
    expect(await tap.stop()).toBe(0)
    const findings = (sessionEvents(data).filter((e) => e.type === 'log' && e.about === 'host') as { text: string }[]).map((f) => f.text)
    expect(findings).toEqual([
      'the host sent POST /mcp without an MCP-Protocol-Version header (required over HTTP since 2025-06-18; 2025-06-18 was agreed)',
      'the host sent POST /mcp without the Mcp-Session-Id the server gave it',
    ])
  })

  it('passes OAuth through untouched (the challenge, metadata, registration, authorization, token) and keeps none of its secrets', async () => {
    const server = await startOAuthMcpServer()
    stops.push(() => server.stop())
    const data = tempDir()
    const tap = await startTap(data, server.url)
    const via = (url: string) => url.replace(server.base, tap.origin)
    const initialize = (token?: string) => ({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oauth-host', version: '1' } },
      }),
    })
    const [direct, tapped] = await Promise.all([fetch(server.url, initialize()), fetch(tap.url, initialize())])
    expect(tapped.status).toBe(401)
    expect(tapped.headers.get('www-authenticate')).toBe(direct.headers.get('www-authenticate'))
    expect(await tapped.text()).toBe(await direct.text())
    const metadataUrl = `${server.base}/.well-known/oauth-protected-resource/mcp`
    expect(await (await fetch(via(metadataUrl))).text()).toBe(await (await fetch(metadataUrl)).text())

    const redirect = 'http://127.0.0.1:1/callback'
    const registered = (await (
      await fetch(`${tap.origin}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [redirect], client_name: 'oauth-host', token_endpoint_auth_method: 'client_secret_post' }),
      })
    ).json()) as { client_id: string; client_secret: string }
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const authorize = new URL(`${tap.origin}/authorize`)
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp:read',
    }))
      authorize.searchParams.set(name, value)
    const back = await fetch(authorize, { redirect: 'manual' })
    const code = new URL(back.headers.get('location')!).searchParams.get('code')!
    const tokens = (await (
      await fetch(`${tap.origin}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: redirect,
          client_id: registered.client_id,
          client_secret: registered.client_secret,
        }),
      })
    ).json()) as { access_token: string }
    const signedIn = await fetch(tap.url, initialize(tokens.access_token))
    expect(signedIn.status).toBe(200)
    expect(await signedIn.text()).toContain('oauth-protected')
    expect(await tap.stop()).toBe(0)

    const events = sessionEvents(data)
    expect(events.find((e) => e.type === 'handshake')).toMatchObject({
      protocol: 'mcp',
      observed: true,
      clientInfo: { name: 'oauth-host' },
    })
    const lines = events.filter((e) => e.type === 'log').map((e) => String(e.text))
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^the host POST \/token → HTTP 200/)]))
    const kept = everything(data)
    for (const secret of [...server.provider.issued, code, verifier, registered.client_secret]) expect(kept).not.toContain(secret)
  })

  it('answers 502 with a JSON body saying why when the upstream cannot be reached, and the session says it too', async () => {
    const data = tempDir()
    const tap = await startTap(data, 'http://127.0.0.1:9/mcp')
    const response = await fetch(tap.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    })
    expect(response.status).toBe(502)
    const body = (await response.json()) as { error: { message: string } }
    expect(body.error.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:9\/mcp: .*ECONNREFUSED/)
    expect(await tap.stop()).toBe(0)
    const logs = sessionEvents(data).filter((e) => e.type === 'log') as { level: string; text: string }[]
    expect(logs.some((l) => l.level === 'error' && l.text.includes('could not reach'))).toBe(true)
  })

  it('listens on this machine only', async () => {
    const child = spawn(process.execPath, [CLI, 'tap', '--listen', '0.0.0.0:0', '--to', 'http://127.0.0.1:9/mcp'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PARALLAX_DATA_DIR: tempDir() },
    })
    let stderr = ''
    child.stderr.on('data', (c) => (stderr += c))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('this machine only')
  })
})

/** A host's A2A session through a card at `base`: a message sent, one streamed, the task got again. */
async function a2aHost(base: string, binding: 'JSONRPC' | 'HTTP+JSON', texts = ['search sports video', 'search news display']) {
  const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, headers: withSecret(init?.headers) })
  const legacyCompat = { enabled: true }
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
    }),
  )
  const client = await factory.createFromUrl(base)
  const card = await client.getAgentCard()
  const message = (text: string): Message => ({
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts: [textPart(text)],
    taskId: '',
    contextId: '',
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  })
  const request = (text: string) => ({ tenant: '', message: message(text), configuration: undefined, metadata: undefined })
  const sent = await client.sendMessage(request(texts[0]))
  const streamed = []
  for await (const event of client.sendMessageStream(request(texts[1]))) streamed.push(event)
  const taskId = 'id' in sent ? sent.id : ''
  const task = taskId ? await client.getTask({ tenant: '', id: taskId, historyLength: undefined }) : undefined
  return { card, sent, streamed, task }
}

/** What two runs of the same session share: everything but the ids and times the agent makes up. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/^(id|taskId|contextId|messageId|artifactId|timestamp|url)$/.test(key))
      .map(([key, v]) => [key, withoutIds(v)]),
  )
}

describe('parallax tap --listen: A2A', () => {
  for (const binding of ['JSONRPC', 'HTTP+JSON'] as const)
    it(`relays an A2A agent over ${binding} through the card it serves pointing at the proxy, with the same results as going direct`, async () => {
      const agent = await startMediaSalesAgent()
      stops.push(() => agent.close())
      const data = tempDir()
      const tap = await startTap(data, agent.url, '--name', 'agent')
      const direct = await a2aHost(agent.url, binding)
      const tapped = await a2aHost(tap.origin, binding)
      expect(withoutIds(tapped)).toEqual(withoutIds(direct))
      expect(tapped.streamed.length).toBeGreaterThan(1)

      // The card the host got sends it to the tap; the agent's own card is what the session keeps.
      const served = (await (await fetch(`${tap.origin}/.well-known/agent-card.json`)).json()) as { supportedInterfaces: { url: string }[] }
      const interfaces = served.supportedInterfaces.map((i) => i.url)
      expect(interfaces.filter((u) => u.startsWith('http')).every((u) => u.startsWith(`${tap.origin}/`))).toBe(true)
      expect(await tap.stop()).toBe(0)

      const events = sessionEvents(data)
      const handshake = events.find((e) => e.type === 'handshake') as Record<string, unknown> & {
        chosenInterface: { url: string; protocolBinding: string }
      }
      expect(handshake).toMatchObject({
        protocol: 'a2a',
        observed: true,
        generation: '1.0',
        transport: binding === 'JSONRPC' ? 'jsonrpc' : 'rest',
      })
      expect(handshake.chosenInterface).toMatchObject({ protocolBinding: binding, url: expect.stringContaining(agent.url) })
      expect((handshake.skills as unknown[]).length).toBeGreaterThan(0)
      const frames = events.filter((e) => e.type === 'frame') as {
        method?: string
        kind: string
        direction: string
        http?: { headers?: Record<string, string>; eventId?: string }
      }[]
      expect(frames.filter((f) => f.direction === 'out').map((f) => f.method)).toEqual(
        expect.arrayContaining(['agent-card', 'SendMessage', 'SendStreamingMessage', 'GetTask']),
      )
      expect(frames.filter((f) => f.kind === 'stream-event').length).toBe(tapped.streamed.length)
      expect(frames.find((f) => f.method === 'SendMessage')!.http!.headers!.authorization).toBe('[redacted]')
      const turns = events
        .filter((e) => e.type === 'conversation')
        .map((e) => e.message as { role: string; content: string; metadata?: { state?: string } })
      expect(turns.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['search sports video', 'search news display'])
      expect(turns.some((m) => m.role === 'agent' && m.metadata?.state)).toBe(true)
      const findings = events.filter((e) => e.type === 'log' && e.about === 'host')
      expect(findings).toEqual([])
      expect(everything(data)).not.toContain(SECRET.split(' ')[1])
    })

  it('relays a v0.3 agent (message/send, message/stream, tasks/get) through its card, its url moved to the proxy', async () => {
    const agent = await startV03Agent()
    stops.push(() => agent.close())
    const data = tempDir()
    const tap = await startTap(data, agent.url)
    const texts = ['hello there', 'and again']
    const direct = await a2aHost(agent.url, 'JSONRPC', texts)
    const tapped = await a2aHost(tap.origin, 'JSONRPC', texts)
    expect(withoutIds(tapped)).toEqual(withoutIds(direct))
    const served = (await (await fetch(`${tap.origin}/.well-known/agent-card.json`)).json()) as { url: string }
    expect(served.url).toBe(`${tap.origin}/a2a`)
    expect(await tap.stop()).toBe(0)

    const events = sessionEvents(data)
    expect(events.find((e) => e.type === 'handshake')).toMatchObject({
      protocol: 'a2a',
      generation: '0.3',
      observed: true,
      transport: 'jsonrpc',
    })
    const sent = (events.filter((e) => e.type === 'frame' && e.direction === 'out') as { method: string }[]).map((f) => f.method)
    expect(sent).toEqual(expect.arrayContaining(['agent-card', 'message/send', 'message/stream', 'tasks/get']))
    const turns = events.filter((e) => e.type === 'conversation').map((e) => e.message as { role: string; content: string })
    expect(turns.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(texts)
    expect(turns.some((m) => m.role === 'agent' && m.content.includes('echo: hello there'))).toBe(true)
    expect(events.filter((e) => e.type === 'log' && e.about === 'host')).toEqual([])
  })

  it('serves the authenticated extended card with its interfaces on the proxy; the bearer token reaches the agent and nothing Parallax writes', async () => {
    const token = `extended-${randomUUID()}`
    const agent = await startExtendedCardAgent(token, new MediaSalesExecutor())
    stops.push(() => agent.close())
    const data = tempDir()
    const tap = await startTap(data, agent.url)
    const ask = (base: string) =>
      fetch(`${base}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetExtendedAgentCard', params: {} }),
      }).then((r) => r.json() as Promise<{ result: { skills: { id: string }[]; supportedInterfaces: { url: string }[] } }>)
    await fetch(`${tap.origin}/.well-known/agent-card.json`)
    const direct = await ask(agent.url)
    const tapped = await ask(tap.origin)
    expect(tapped.result.skills).toEqual(direct.result.skills)
    expect(tapped.result.skills.map((s) => s.id)).toContain('premium_inventory')
    expect(tapped.result.supportedInterfaces.map((i) => i.url)).toEqual(
      direct.result.supportedInterfaces.map((i) => i.url.replace(agent.url, tap.origin)),
    )
    // The same card over HTTP+JSON.
    const rest = (await (
      await fetch(`${tap.origin}/a2a/rest/extendedAgentCard`, { headers: { 'a2a-version': '1.0', authorization: `Bearer ${token}` } })
    ).json()) as { skills: unknown[]; supportedInterfaces: { url: string }[] }
    expect(rest.skills).toEqual(direct.result.skills)
    expect(rest.supportedInterfaces.every((i) => i.url.startsWith(`${tap.origin}/`))).toBe(true)
    expect(await tap.stop()).toBe(0)
    const events = sessionEvents(data)
    const extended = events.find((e) => e.type === 'discovery' && e.method === 'extended-agent-card') as { status: string; count: number }
    expect(extended).toMatchObject({ status: 'called', count: direct.result.skills.length })
    expect(everything(data)).not.toContain(token)
  })

  it('says what the host did that the card does not allow: a binding it does not offer, an A2A-Version that does not match the method', async () => {
    const agent = await startMediaSalesAgent()
    stops.push(() => agent.close())
    const data = tempDir()
    const tap = await startTap(data, agent.url)
    await fetch(`${tap.origin}/.well-known/agent-card.json`)
    const send = (path: string, version: string) =>
      fetch(`${tap.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': version },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'search sports video' }] } },
        }),
      }).then((r) => r.status)
    expect(await send('/a2a/jsonrpc', '0.3')).toBe(200)
    await send('/a2a/elsewhere', '1.0')
    expect(await tap.stop()).toBe(0)
    const findings = (sessionEvents(data).filter((e) => e.type === 'log' && e.about === 'host') as { text: string }[]).map((f) => f.text)
    expect(findings).toEqual([
      'the host sent A2A-Version 0.3 with the v1.0 method SendMessage',
      expect.stringMatching(/^the host called SendMessage over JSONRPC at \/a2a\/elsewhere, which the agent's card does not offer/),
    ])
  })
})

describe('parallax tap --listen: the stream as it comes', () => {
  it('hands each event on as the upstream sends it, passes Last-Event-ID and sets Host, and keeps each event id on its frame', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const seen: { host?: string; lastEventId?: string } = {}
    const upstream = createServer((req, res) => {
      seen.host = req.headers.host
      seen.lastEventId = req.headers['last-event-id'] as string | undefined
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' })
      const note = (id: number) =>
        `id: ${id}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `event ${id}` } })}\n\n`
      res.write(note(4))
      void released.then(() => res.end(note(5)))
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    stops.push(() => new Promise((resolve) => (upstream.closeAllConnections(), upstream.close(resolve))))
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`
    const data = tempDir()
    const tap = await startTap(data, upstreamUrl)
    const response = await fetch(tap.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': 's-1', 'last-event-id': '3' } })
    const reader = response.body!.getReader()
    let text = ''
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value)
    // The first event is here while the upstream still holds the second.
    expect(text).toContain('event 4')
    expect(text).not.toContain('event 5')
    release()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value)
    expect(text).toContain('event 5')
    expect(seen).toEqual({ host: new URL(upstreamUrl).host, lastEventId: '3' })
    expect(await tap.stop()).toBe(0)
    const frames = sessionEvents(data).filter((e) => e.type === 'frame') as { http: { eventId?: string; method: string } }[]
    expect(frames.map((f) => f.http.eventId)).toEqual(['4', '5'])
  })

  it("moves a legacy SSE endpoint event that names the upstream's absolute URL to the proxy, and leaves the rest of the stream as it was", async () => {
    const upstream = createServer((_req, res) => {
      const origin = `http://${_req.headers.host}`
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(
        `event: endpoint\ndata: ${origin}/messages?sessionId=abc\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: origin } })}\n\n`,
      )
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    stops.push(() => new Promise((resolve) => (upstream.closeAllConnections(), upstream.close(resolve))))
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    const tap = await startTap(tempDir(), `${origin}/sse`)
    const text = await (await fetch(tap.url, { headers: { accept: 'text/event-stream' } })).text()
    expect(text).toBe(
      `event: endpoint\ndata: ${tap.origin}/messages?sessionId=abc\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: origin } })}\n\n`,
    )
  })
})
