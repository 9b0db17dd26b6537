import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'
import { startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'

// The JWT bearer grants from the command line (workload identity, --assertion-file; enterprise-managed
// authorization, --id-token-file with --idp-token-endpoint): what they are given wrong is said plainly,
// before anything is sent with it. (The conformance suite's scenarios show them working.)

const dir = mkdtempSync(join(tmpdir(), 'parallax-assertion-grants-'))
const parallax = cliRunner(join(dir, 'data'))
let server: OAuthMcpFixture | undefined

afterEach(async () => {
  await server?.stop()
  server = undefined
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the JWT bearer grants on the command line', () => {
  it('says a workload identity token file cannot be read, and asks the token endpoint nothing', async () => {
    server = await startOAuthMcpServer()
    const missing = join(dir, 'no-such-token.jwt')
    const run = await parallax('call', `mcp:${server.url}`, 'whoami', '--client-id', 'workload', '--assertion-file', missing)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain(`the workload identity token ${missing} cannot be read (ENOENT)`)
    expect(server.provider.issued).toEqual([])
  })

  it('says a workload identity token file that holds no JWT is not one', async () => {
    server = await startOAuthMcpServer()
    const file = join(dir, 'not-a-jwt.txt')
    writeFileSync(file, 'hello\n')
    const run = await parallax('call', `mcp:${server.url}`, 'whoami', '--client-id', 'workload', '--assertion-file', file)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain(`the workload identity token ${file} is not a JWT`)
    expect(server.provider.issued).toEqual([])
  })

  it('refuses an ID token without the identity provider that exchanges it', async () => {
    const run = await parallax('call', 'mcp:http://127.0.0.1:9/mcp', 'whoami', '--id-token-file', join(dir, 'id.jwt'))
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--id-token-file and --idp-token-endpoint go together')
  })
})
