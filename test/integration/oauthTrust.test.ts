import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthEvent, SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startOAuthMcpServer, type OAuthMcpFixture, type OAuthMcpOptions } from '../fixtures/oauthServers'
import { approveAll } from '../fixtures/targets'

// What Parallax refuses of an authorization server, and says why in the Auth steps: an endpoint that would
// hand a person or a code to something other than https (or http on this machine), metadata answering for
// another issuer, a redirect back that names another issuer or none where one was promised.

let engine: Engine | undefined
let server: OAuthMcpFixture | undefined
let dir: string | undefined

afterEach(async () => {
  await engine?.dispose()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  engine = server = dir = undefined
})

/** An engine whose system browser is a list: what a sign-in would have opened. */
async function start(options: OAuthMcpOptions, headless = false) {
  server = await startOAuthMcpServer(options)
  dir = mkdtempSync(join(tmpdir(), 'parallax-oauth-trust-'))
  const opened: string[] = []
  engine = new Engine({
    host: 'web',
    dataDir: dir,
    approver: approveAll,
    openBrowser: async (url) => void opened.push(url),
  })
  const recorder = new EventRecorder(engine)
  const target: SavedTarget = {
    id: 'guarded',
    name: 'guarded server',
    origin: 'user',
    options: { reconnectAttempts: 0 },
    spec: { kind: 'mcp-http', url: server.url, headers: {}, transport: 'streamable-http', oauth: { headless } },
  }
  await engine.invoke('targets.save', target)
  return { engine, server, recorder, opened, steps: () => recorder.of('auth') as AuthEvent[] }
}

const refusal = (steps: AuthEvent[]) => steps.find((e) => e.step === 'decision' && e.decision?.refused)

describe('sign-in URLs Parallax will not open, endpoints it will not send codes or tokens to', () => {
  for (const [label, endpoint, why] of [
    ['a file: authorization endpoint', 'file:///etc/passwd', /scheme is file:/],
    ['an smb: authorization endpoint', 'smb://attacker.example/share', /scheme is smb:/],
    ['an endpoint with shell metacharacters', 'https://127.0.0.1:1/authorize?x="&calc.exe&"', /holds """/],
    ['an endpoint with a command substitution', 'a:$(cmd.exe /c whoami)', /holds a space/],
    ['a plain-http endpoint on another host', 'http://192.0.2.10/authorize', /plain http: to 192\.0\.2\.10.*in clear/],
  ] as const) {
    it(`refuses ${label}: the sign-in fails saying why, and nothing is opened`, async () => {
      const { engine, server, opened, steps } = await start({ metadata: { authorization_endpoint: endpoint } })
      await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(why)
      const refused = refusal(steps())!
      expect(refused.phase).toBe('authorization-server-metadata')
      expect(refused.decision?.why).toContain('authorization_endpoint')
      expect(refused.decision?.why).toMatch(why)
      expect(steps().at(-1)).toMatchObject({ step: 'failed' })
      expect(steps().some((e) => e.step === 'authorize')).toBe(false)
      expect(opened).toEqual([])
      // Refused before Parallax registered or asked for anything.
      expect(server.provider.clients.size).toBe(0)
      expect(server.provider.authorizations).toEqual([])
    })
  }

  it('refuses a plain-http token endpoint on another host: no code would cross the network in clear', async () => {
    const { engine, opened, steps } = await start({ metadata: { token_endpoint: 'http://192.0.2.10/token' } })
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(/token_endpoint.*plain http:/)
    expect(refusal(steps())?.decision?.why).toMatch(/token_endpoint "http:\/\/192\.0\.2\.10\/token" is refused/)
    expect(opened).toEqual([])
  })

  it('opens the sign-in page of a server that keeps the rules (http on this machine)', async () => {
    const { engine, opened } = await start({})
    const begun = engine.invoke('auth.signIn', { targetId: 'guarded' })
    await expect.poll(() => opened.length).toBe(1)
    expect(new URL(opened[0]).origin).toBe(new URL(server!.url).origin)
    await fetch(opened[0]) // the authorization server approves at once and redirects to the loopback
    await expect(begun).resolves.toMatchObject({ signedIn: true })
  })
})

describe('the authorization server’s issuer', () => {
  it('refuses metadata whose issuer differs from the identifier it was found by, even by a trailing slash (RFC 8414 §3.3)', async () => {
    const { engine, server, steps } = await start({ authorizationServer: (base) => base }, true)
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(/issuer/)
    const why = refusal(steps())?.decision?.why ?? ''
    expect(why).toContain(`its issuer is "${server.base}/"`)
    expect(why).toContain(`found as "${server.base}"`)
    expect(why).toContain('RFC 8414 §3.3')
    expect(server.provider.clients.size).toBe(0)
  })

  it('refuses a redirect back whose iss names another issuer (RFC 9207): no token is asked for', async () => {
    const { engine, server, steps } = await start({ iss: () => 'https://attacker.example/' }, true)
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(/iss is "https:\/\/attacker\.example\/"/)
    const callback = steps().find((e) => e.step === 'callback')!
    expect(callback.callback).toMatchObject({ stateMatched: true, iss: 'https://attacker.example/' })
    expect(callback.callback?.refused).toMatch(/mix-up/)
    expect(steps().some((e) => e.step === 'request' && e.phase === 'token')).toBe(false)
    expect(server.provider.issued).toEqual([])
    expect(await engine.invoke('auth.status', { targetId: 'guarded' })).toMatchObject({ signedIn: false })
  })

  it('refuses a redirect back without iss from a server whose metadata promises it (authorization_response_iss_parameter_supported)', async () => {
    const { engine, server, steps } = await start({ metadata: { authorization_response_iss_parameter_supported: true } }, true)
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(/carries no iss/)
    expect(steps().find((e) => e.step === 'callback')?.callback?.refused).toMatch(/authorization_response_iss_parameter_supported/)
    expect(server.provider.issued).toEqual([])
  })

  it('refuses an iss that is the issuer in another form (no trailing slash): compared as an exact string, never normalised (SEP-2468)', async () => {
    const { engine, server, steps } = await start(
      { metadata: { authorization_response_iss_parameter_supported: true }, iss: (issuer) => issuer.replace(/\/$/, '') },
      true,
    )
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).rejects.toThrow(/differ only in form/)
    const callback = steps().find((e) => e.step === 'callback')!
    expect(callback.callback).toMatchObject({ stateMatched: true, iss: server.base })
    expect(callback.summary).toContain(`the issuer Parallax asked is "${server.base}/"`)
    expect(callback.summary).toContain('never normalised')
    expect(steps().some((e) => e.step === 'request' && e.phase === 'token')).toBe(false)
    expect(server.provider.issued).toEqual([])
    expect(steps().at(-1)).toMatchObject({ step: 'failed' })
  })

  it('signs in when iss is the issuer, promised or not, saying it was compared', async () => {
    const { engine, steps } = await start(
      { metadata: { authorization_response_iss_parameter_supported: true }, iss: (issuer) => issuer },
      true,
    )
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).resolves.toMatchObject({ signedIn: true })
    expect(steps().find((e) => e.step === 'callback')?.callback).toMatchObject({ stateMatched: true, iss: `${server!.base}/` })
    const accepted = steps().find((e) => e.step === 'decision' && e.decision?.choice.startsWith('iss'))
    expect(accepted?.decision).toMatchObject({ choice: `iss "${server!.base}/" accepted` })
    expect(accepted?.decision?.why).toContain('exactly the issuer')
  })

  it('signs in without iss from a server that does not promise one, saying why the answer is taken', async () => {
    const { engine, steps } = await start({}, true)
    await expect(engine.invoke('auth.signIn', { targetId: 'guarded' })).resolves.toMatchObject({ signedIn: true })
    const accepted = steps().find((e) => e.step === 'decision' && e.decision?.choice === 'no iss, accepted')
    expect(accepted?.decision?.why).toContain('authorization_response_iss_parameter_supported')
  })
})
