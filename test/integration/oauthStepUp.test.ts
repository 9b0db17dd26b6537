import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthEvent, SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'
import { approveAll } from '../fixtures/targets'

// Step-up with a person in the loop: the server answers `place_order` 403 insufficient_scope until the
// token has mcp:write. A person signs in (here: the test fetches the authorization URL, as a browser would,
// and the authorization server approves), then calls the tool: Parallax asks them to sign in again, naming
// the scopes, reuses its client registration, and sends the call again once they have.

let engine: Engine | undefined
let server: OAuthMcpFixture | undefined
let dir: string | undefined

afterEach(async () => {
  await engine?.dispose()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  engine = server = dir = undefined
})

const TARGET = 'orders'

/** Signed in with mcp:read, connected: the state a step-up starts from. */
async function signedIn(options: { stepUpByPerson?: boolean } = {}) {
  server = await startOAuthMcpServer()
  dir = mkdtempSync(join(tmpdir(), 'parallax-step-up-'))
  engine = new Engine({ host: 'web', dataDir: dir, approver: approveAll, ...options })
  const recorder = new EventRecorder(engine)
  const target: SavedTarget = {
    id: TARGET,
    name: 'orders server',
    origin: 'user',
    options: { reconnectAttempts: 0 },
    spec: { kind: 'mcp-http', url: server.url, headers: {}, transport: 'streamable-http', oauth: {} },
  }
  await engine.invoke('targets.save', target)
  // The 401 names mcp:read: the person signs in for that, then connects again.
  const refused = await engine.invoke('connections.open', { targetId: TARGET })
  expect(await engine.invoke('connections.wait', refused)).toMatchObject({ connected: false, cause: { auth: { required: true } } })
  const first = await engine.invoke('auth.begin', refused)
  expect((await fetch(first.authorizationUrl!)).status).toBe(200) // the browser, approved at once
  expect(await engine.invoke('auth.wait', { flowId: first.flowId })).toMatchObject({ grant: { scopes: ['mcp:read'] } })
  const { connectionId } = await engine.invoke('connections.reconnect', refused)
  expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })
  const steps = () => recorder.of('auth') as AuthEvent[]
  const asked = () => recorder.waitFor((e) => e.type === 'auth' && e.step === 'more-access') as Promise<AuthEvent>
  return { engine, server, connectionId, recorder, steps, asked }
}

describe('step-up with a person in the loop', () => {
  it('asks, naming the scopes; the person signs in again on the same registration; the call goes again and its result comes back', async () => {
    const { engine, server, connectionId, steps, asked } = await signedIn()
    const call = engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })

    const ask = await asked()
    expect(ask.moreAccess).toMatchObject({ scopes: ['mcp:read', 'mcp:write'], missing: ['mcp:write'], for: 'tools/call place_order' })
    expect(ask.summary).toContain('scope "mcp:write"')
    // The Auth tab's truth while it waits: signed in, but needing more access.
    expect(await engine.invoke('auth.status', { targetId: TARGET })).toMatchObject({
      signedIn: true,
      moreAccess: { flowId: ask.flowId, missing: ['mcp:write'], for: 'tools/call place_order' },
    })

    const again = await engine.invoke('auth.begin', { targetId: TARGET })
    expect(again.flowId).toBe(ask.flowId) // the sign-in continues the step-up's flow
    const url = new URL(again.authorizationUrl!)
    expect(url.searchParams.get('scope')).toBe('mcp:read mcp:write')
    expect((await fetch(url)).status).toBe(200)

    const report = await call
    expect(report.error).toBeUndefined()
    expect(JSON.stringify(report.response)).toContain('ordered')
    expect(server.provider.clients.size).toBe(1) // no second registration
    expect(server.provider.authorizations).toEqual([['mcp:read'], ['mcp:read', 'mcp:write']])
    const status = await engine.invoke('auth.status', { targetId: TARGET })
    expect(status.moreAccess).toBeUndefined()
    expect(status.grant?.scopes).toEqual(['mcp:read', 'mcp:write'])
    const flow = steps().filter((e) => e.flowId === ask.flowId)
    expect(flow.map((e) => e.step)).toEqual(expect.arrayContaining(['challenge', 'more-access', 'authorize', 'callback', 'granted']))
    expect(flow.find((e) => e.step === 'decision' && e.phase === 'registration')?.summary).toContain('registered earlier')
  })

  it('Cancel declines: the call fails saying what the server asked for and that the person chose not to', async () => {
    const { engine, server, connectionId, steps, asked } = await signedIn()
    const call = engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })
    const ask = await asked()
    expect(await engine.invoke('auth.cancel', { flowId: ask.flowId })).toEqual({ cancelled: true })
    const report = await call
    expect(report.error).toBe(
      'the server asks for more access (scope "mcp:write", HTTP 403 insufficient_scope) and you chose not to sign in again',
    )
    expect(steps().findLast((e) => e.flowId === ask.flowId)).toMatchObject({ step: 'failed', phase: 'step-up' })
    expect((await engine.invoke('auth.status', { targetId: TARGET })).moreAccess).toBeUndefined()
    expect(server.provider.authorizations).toEqual([['mcp:read']])
    // The session lives on: a call the token allows still works.
    const whoami = await engine.invoke('tools.call', { connectionId, tool: 'whoami', arguments: {} })
    expect(JSON.stringify(whoami.response)).toContain('mcp:read')
  })

  it('calls meeting the same step-up, at once or while the person is asked, wait for one answer and all go again', async () => {
    const { engine, connectionId, steps, asked } = await signedIn()
    const place = () => engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })
    // One at the same moment as the first, one once the person is being asked.
    const calls = [place(), place()]
    await asked()
    calls.push(place())
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(steps().filter((e) => e.step === 'more-access')).toHaveLength(1)
    const again = await engine.invoke('auth.begin', { targetId: TARGET })
    await fetch(again.authorizationUrl!)
    for (const report of await Promise.all(calls)) expect(JSON.stringify(report.response)).toContain('ordered')
    // One step-up flow, ended granted: the second call joined it rather than leave another under way.
    const stepUpFlows = new Set(
      steps()
        .filter((e) => e.phase === 'step-up')
        .map((e) => e.flowId),
    )
    expect(stepUpFlows.size).toBe(1)
    expect(steps().findLast((e) => stepUpFlows.has(e.flowId))?.step).toBe('granted')
  })

  it('with nobody to ask, the call fails at once saying so, and nothing more is registered', async () => {
    const { engine, server, connectionId, steps } = await signedIn({ stepUpByPerson: false })
    const report = await engine.invoke('tools.call', { connectionId, tool: 'place_order', arguments: {} })
    expect(report.error).toMatch(
      /^the server asks for more access \(scope "mcp:write", HTTP 403 insufficient_scope\) and nobody is here to sign in again/,
    )
    expect(steps().some((e) => e.step === 'more-access')).toBe(false)
    expect(server.provider.clients.size).toBe(1)
  })
})
