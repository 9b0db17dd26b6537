import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthEvent, SavedTarget } from '../../shared/contract'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { MediaSalesExecutor } from '../../shared/demo/a2aAgent'
import { startOAuthA2aAgent, startOAuthMcpServer, type OAuthA2aFixture, type OAuthMcpFixture } from '../fixtures/oauthServers'
import { approveAll } from '../fixtures/targets'

let engine: Engine | undefined
let server: OAuthMcpFixture | OAuthA2aFixture | undefined
let dir: string | undefined

afterEach(async () => {
  await engine?.dispose()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  engine = server = dir = undefined
})

function start(): { engine: Engine; recorder: EventRecorder; dir: string } {
  dir = mkdtempSync(join(tmpdir(), 'parallax-oauth-'))
  engine = new Engine({ host: 'web', dataDir: dir, builtIns: builtInDemos(), approver: approveAll })
  return { engine, recorder: new EventRecorder(engine), dir }
}

function oauthTarget(url: string, headless = true): SavedTarget {
  return {
    id: 'oauth-server',
    name: 'OAuth-protected server',
    origin: 'user',
    options: { reconnectAttempts: 0 },
    spec: { kind: 'mcp-http', url, headers: {}, transport: 'streamable-http', oauth: { headless } },
  }
}

const steps = (recorder: EventRecorder): AuthEvent[] => recorder.of('auth')
const summary = (recorder: EventRecorder) => steps(recorder).map((e) => `${e.step}/${e.phase}`)

/** What a user checks: nothing any server issued (tokens, refresh tokens, secrets) appears in `text`. */
function expectNoCredential(text: string, issued: string[], where: string) {
  expect(issued.length).toBeGreaterThan(0)
  for (const value of issued) expect(text.includes(value), `${value} is in ${where}`).toBe(false)
}

describe('OAuth for a remote MCP server', () => {
  it('signs in on connect, every step an event, and no token anywhere but the secret store', async () => {
    server = await startOAuthMcpServer()
    const { engine, recorder, dir } = start()
    await engine.invoke('targets.save', oauthTarget(server.url))
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })

    // The flow in the spec's order: challenge, resource metadata, AS metadata, registration, authorization, token.
    const seen = summary(recorder)
    const order = [
      'challenge/challenge',
      'request/resource-metadata',
      'request/authorization-server-metadata',
      'request/registration',
      'authorize/authorization',
      'callback/authorization',
      'request/token',
      'granted/token',
    ]
    let at = -1
    for (const step of order) {
      const next = seen.indexOf(step, at + 1)
      expect(next, `${step} after step ${at} in ${seen.join(', ')}`).toBeGreaterThan(at)
      at = next
    }
    const granted = steps(recorder).find((e) => e.step === 'granted')!
    expect(granted.grant).toMatchObject({ grantType: 'authorization_code', scopes: ['mcp:read'], refreshable: true, resource: server.url })
    expect(granted.connectionId).toBe(connectionId)
    const token = steps(recorder).find((e) => e.step === 'request' && e.phase === 'token')!
    expect(JSON.stringify(token.http?.request.body)).toContain('"code":"[redacted]"')
    expect(JSON.stringify(token.http?.response?.body)).toContain('"access_token":"[redacted]"')
    const callback = steps(recorder).find((e) => e.step === 'callback')!
    expect(callback.callback).toEqual({ stateMatched: true })

    // A recording of the session and every event hold no credential; the secret store (0600) does.
    await engine.invoke('recordings.start', { connectionId, name: 'oauth-session' })
    const report = await engine.invoke('tools.call', { connectionId, tool: 'whoami', arguments: {} })
    expect(JSON.stringify(report.response)).toContain('mcp:read')
    await engine.invoke('recordings.stop', { connectionId })
    const recording = (await engine.invoke('recordings.export', { name: 'oauth-session' })).text
    expectNoCredential(recording, server.provider.issued, 'the recording')
    expectNoCredential(JSON.stringify(recorder.events), server.provider.issued, 'the events')
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f !== 'secrets.json' && !f.endsWith('/')))
      if (!file.startsWith('recordings') || file.endsWith('.jsonl'))
        expectNoCredential(safeRead(join(dir, file)), server.provider.issued, file)
    const store = readFileSync(join(dir, 'secrets.json'), 'utf8')
    expect(server.provider.issued.some((t) => store.includes(t))).toBe(true)

    const status = await engine.invoke('auth.status', { targetId: 'oauth-server' })
    expect(status).toMatchObject({ signedIn: true, store: 'file', client: { registration: 'dynamic' }, grant: { scopes: ['mcp:read'] } })
    expect(JSON.stringify(status)).not.toContain(server.provider.issued[0])
  })

  it('steps up on 403 insufficient_scope, keeping the scopes it had', async () => {
    server = await startOAuthMcpServer()
    const { engine, recorder } = start()
    await engine.invoke('targets.save', oauthTarget(server.url))
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })
    const report = await engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })
    expect(report.error).toBeUndefined()
    expect(JSON.stringify(report.response)).toContain('ordered')
    expect(server.provider.authorizations).toEqual([['mcp:read'], ['mcp:read', 'mcp:write']])
    expect(server.provider.clients.size).toBe(1) // the step-up signs in on the client registered first
    const stepUp = steps(recorder).find((e) => e.step === 'challenge' && e.phase === 'step-up')!
    expect(stepUp.challenge).toMatchObject({ status: 403, error: 'insufficient_scope', scope: 'mcp:read mcp:write' })
    expect(steps(recorder).findLast((e) => e.step === 'granted')?.grant?.scopes).toEqual(['mcp:read', 'mcp:write'])
  })

  it('signs out: the store forgets the tokens, and the next connection signs in again', async () => {
    server = await startOAuthMcpServer()
    const { engine, recorder, dir } = start()
    await engine.invoke('targets.save', oauthTarget(server.url))
    const first = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    await engine.invoke('connections.wait', first)
    const out = await engine.invoke('auth.signOut', { targetId: 'oauth-server' })
    expect(out).toMatchObject({ signedIn: false, cleared: ['tokens', 'dynamic registration'] })
    expect(steps(recorder).at(-1)).toMatchObject({ step: 'signed-out', phase: 'sign-out' })
    expectNoCredential(safeRead(join(dir, 'secrets.json')), server.provider.issued, 'the secret store after sign-out')

    await engine.invoke('connections.close', first)
    const before = server.provider.authorizations.length
    const second = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    expect(await engine.invoke('connections.wait', second)).toMatchObject({ connected: true })
    expect(server.provider.authorizations.length).toBe(before + 1)
    expect(steps(recorder).some((e) => e.connectionId === second.connectionId && e.step === 'granted')).toBe(true)
  })

  it('refuses resource metadata that names another resource, and never asks for authorization', async () => {
    server = await startOAuthMcpServer({ resource: 'https://elsewhere.example/mcp' })
    const { engine, recorder } = start()
    await engine.invoke('targets.save', oauthTarget(server.url))
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    const outcome = await engine.invoke('connections.wait', { connectionId })
    expect(outcome.connected).toBe(false)
    expect(outcome.cause?.status).toBe(401)
    expect(outcome.cause?.auth?.why).toContain('https://elsewhere.example/mcp')
    const refused = steps(recorder).find((e) => e.step === 'decision' && e.decision?.refused)!
    expect(refused.phase).toBe('resource-metadata')
    expect(server.provider.authorizations).toEqual([])
    expect(summary(recorder)).not.toContain('request/registration')
  })

  it('without headless, a person signs in: the connection says so, then the browser comes back to the loopback redirect', async () => {
    server = await startOAuthMcpServer()
    const { engine, recorder } = start()
    await engine.invoke('targets.save', oauthTarget(server.url, false))
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'oauth-server' })
    const outcome = await engine.invoke('connections.wait', { connectionId })
    expect(outcome).toMatchObject({ connected: false, cause: { status: 401, auth: { required: true } } })
    expect(server.provider.authorizations).toEqual([])

    const begun = await engine.invoke('auth.begin', { connectionId })
    expect(begun.state).toBe('waiting')
    expect(begun.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)
    const authorizationUrl = new URL(begun.authorizationUrl!)
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256')
    expect(authorizationUrl.searchParams.get('resource')).toBe(server.url)
    expect(await engine.invoke('auth.status', { targetId: 'oauth-server' })).toMatchObject({
      flow: { flowId: begun.flowId, state: 'waiting' },
    })

    // A forged redirect (another state) is refused and ends the sign-in; a new one completes as a browser would.
    const forged = await fetch(`${begun.redirectUri}?code=stolen&state=forged`)
    expect(forged.status).toBe(400)
    await expect(engine.invoke('auth.wait', { flowId: begun.flowId })).rejects.toThrow(/state did not match/)

    const again = await engine.invoke('auth.begin', { targetId: 'oauth-server' })
    const landed = await fetch(again.authorizationUrl!) // the authorization server approves and redirects to the loopback
    expect(landed.status).toBe(200)
    expect(await landed.text()).toContain('Signed in')
    expect(await engine.invoke('auth.wait', { flowId: again.flowId })).toMatchObject({ signedIn: true })
    const { connection } = await engine.reconnect(connectionId)
    expect(await engine.invoke('connections.wait', { connectionId: connection.id })).toMatchObject({ connected: true })
    expect(
      steps(recorder)
        .filter((e) => e.step === 'authorize')
        .map((e) => e.authorize?.mode),
    ).toEqual(['browser', 'browser'])
  })
})

describe('OAuth for an A2A agent', () => {
  it('shows the card’s scheme, signs in with client credentials when the agent challenges, and sends the token only there', async () => {
    const client = { id: 'partner-client', secret: 'partner-secret-0123456789' }
    const agent = await startOAuthA2aAgent(new MediaSalesExecutor(), client)
    server = agent
    const { engine, recorder, dir } = start()
    await engine.invoke('targets.save', {
      id: 'oauth-agent',
      name: 'OAuth agent',
      spec: { kind: 'a2a', url: agent.url, headers: {}, binding: 'auto', oauth: { clientId: client.id, clientSecret: client.secret } },
    })
    // The client secret went to the secret store, not the targets file.
    expect(readFileSync(join(dir, 'targets.json'), 'utf8')).not.toContain(client.secret)
    expect((await engine.invoke('targets.list', {})).find((t) => t.id === 'oauth-agent')?.spec).not.toHaveProperty(
      'oauth.clientSecret',
      client.secret,
    )

    const { connectionId } = await engine.invoke('connections.open', { targetId: 'oauth-agent' })
    expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })
    const handshake = recorder.of('handshake', connectionId)[0]
    expect(handshake.protocol === 'a2a' && handshake.security).toMatchObject({
      schemes: [{ name: 'partnerOAuth', type: 'oauth2', detail: 'OAuth 2 (clientCredentials)' }],
      requirements: [['partnerOAuth']],
    })

    const turn = await engine.invoke('conversation.send', { connectionId, turn: { text: 'list products' } })
    expect(turn.state).not.toBe('failed')
    const granted = steps(recorder).find((e) => e.step === 'granted')!
    expect(granted.grant).toMatchObject({ grantType: 'client_credentials', scopes: ['agent:use'] })
    expect(summary(recorder)).toEqual(expect.arrayContaining(['challenge/challenge', 'request/token', 'granted/token']))
    const tokenRequest = steps(recorder).find((e) => e.step === 'request' && e.phase === 'token')!
    expect(tokenRequest.http?.request.headers.authorization).toBe('Basic [redacted]')
    // Every request that carried a bearer token went to the agent; none carried the client's secret in the clear.
    expect(agent.seen.filter((h) => h?.startsWith('Bearer ')).length).toBeGreaterThan(0)
    expectNoCredential(JSON.stringify(recorder.events), [...agent.provider.issued, client.secret], 'the events')
  })
})

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}
