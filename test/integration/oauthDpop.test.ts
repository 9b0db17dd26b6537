import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthEvent, SavedTarget } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventRecorder } from '../fixtures/events'
import { startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'
import { approveAll } from '../fixtures/targets'

// DPoP (RFC 9449, MCP's SEP-1932): an authorization server that takes proofs and binds tokens to their key,
// an MCP server that wants the token as `DPoP` with a proof of that key on every request, both asking for
// a nonce first. What a user checks: it works, each step is said, and the key stays in the secret store.

let engine: Engine | undefined
let server: OAuthMcpFixture | undefined
let dir: string | undefined

afterEach(async () => {
  await engine?.dispose()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
  engine = server = dir = undefined
})

const target = (url: string): SavedTarget => ({
  id: 'dpop-server',
  name: 'DPoP-protected server',
  origin: 'user',
  options: { reconnectAttempts: 0 },
  spec: { kind: 'mcp-http', url, headers: {}, transport: 'streamable-http', oauth: { headless: true } },
})

describe('DPoP-bound tokens', () => {
  it('binds the token to a key kept in the secret store, proves it on every request, and sends a request again with the nonce each server asks for', async () => {
    server = await startOAuthMcpServer({ dpop: { nonce: true } })
    dir = mkdtempSync(join(tmpdir(), 'parallax-dpop-'))
    engine = new Engine({ host: 'web', dataDir: dir, approver: approveAll })
    const recorder = new EventRecorder(engine)
    await engine.invoke('targets.save', target(server.url))
    const { connectionId } = await engine.invoke('connections.open', { targetId: 'dpop-server' })
    expect(await engine.invoke('connections.wait', { connectionId })).toMatchObject({ connected: true })
    await engine.invoke('recordings.start', { connectionId, name: 'dpop-session' })
    const report = await engine.invoke('tools.call', { connectionId, tool: 'whoami', arguments: {} })
    expect(JSON.stringify(report.response)).toContain('mcp:read')
    await engine.invoke('recordings.stop', { connectionId })

    // The authorization server bound the token to the key Parallax proved; the MCP server took every proof.
    const { dpop, provider } = server
    const [bound] = [...provider.boundTo.values()]
    expect(provider.boundTo.size).toBe(1)
    expect(dpop.refused).toEqual([])
    expect(new Set(dpop.schemes)).toEqual(new Set(['DPoP']))
    const jtis = dpop.resourceProofs.map((claims) => claims.jti)
    expect(jtis.length).toBeGreaterThanOrEqual(3)
    expect(new Set(jtis).size).toBe(jtis.length)
    // Each server asked for its nonce once: the first proof had none, the next carried it.
    expect(dpop.tokenProofs.map((claims) => claims.nonce === undefined)).toEqual([true, false])
    expect(dpop.resourceProofs[0].nonce).toBeUndefined()
    expect(dpop.resourceProofs.slice(1).every((claims) => typeof claims.nonce === 'string')).toBe(true)

    const status = await engine.invoke('auth.status', { targetId: 'dpop-server' })
    expect(status.grant).toMatchObject({ tokenType: 'DPoP', boundKey: { alg: 'ES256', thumbprint: bound } })

    // Every step said: DPoP chosen (with the key's thumbprint), both nonces, the token bound.
    const steps = recorder.of('auth') as AuthEvent[]
    const choices = steps.filter((e) => e.step === 'decision').map((e) => e.decision!.choice)
    expect(choices).toContain(`DPoP-bound token (ES256, key ${bound})`)
    expect(choices).toContain('token request sent again with the server’s DPoP nonce')
    expect(choices).toContain('request sent again with the server’s DPoP nonce')
    expect(steps.find((e) => e.step === 'granted')?.summary).toContain(`DPoP token bound to key ${bound}`)
    const tokenRequests = steps.filter((e) => e.step === 'request' && e.phase === 'token')
    expect(tokenRequests.map((e) => e.http?.response?.status)).toEqual([400, 200])
    const shownProof = tokenRequests[1].http!.request.headers.dpop
    expect(shownProof).toMatch(/^dpop\+jwt ES256 \{.*"htm":"POST".*"nonce":"as-nonce-.*\(signature \[redacted\]\)$/)

    // The private key is in the secret store and nowhere else: not in the events, the recording, or any other file.
    const stored = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>
    const credentials = Object.values(stored).map((text) => JSON.parse(text) as { dpop?: { privateJwk: { d: string } } })
    const privateKey = credentials.find((c) => c.dpop)!.dpop!.privateJwk.d
    expect(privateKey.length).toBeGreaterThan(20)
    const recording = (await engine.invoke('recordings.export', { name: 'dpop-session' })).text
    expect(recording).not.toContain(privateKey)
    expect(JSON.stringify(recorder.events)).not.toContain(privateKey)
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f !== 'secrets.json'))
      expect(safeRead(join(dir, file)).includes(privateKey), file).toBe(false)
  })
})

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    return ''
  }
}
