import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'
import { startModernHttpServer, type RunningModernServer } from '../fixtures/modernServers'
import { drifted, truthful } from '../fixtures/serverCards'

const parallax = cliRunner(mkdtempSync(join(tmpdir(), 'parallax-cards-')))
let honest: RunningModernServer
let drifting: RunningModernServer
beforeAll(async () => {
  honest = await startModernHttpServer('stateless', { card: truthful })
  drifting = await startModernHttpServer('stateless', { card: drifted })
})
afterAll(async () => {
  await Promise.all([honest?.close(), drifting?.close()])
})

const base = (server: RunningModernServer) => server.url.replace(/\/mcp$/, '')

describe('parallax inspect --card', () => {
  it('finds no drift when the server answers as its card claims (the card found from the base URL)', async () => {
    const run = await parallax('inspect', '--card', base(honest))
    expect(run.stdout, run.stderr).toContain(`server card ${base(honest)}/.well-known/mcp/server-card`)
    expect(run.stdout).toMatch(/version\s+same/)
    expect(run.stdout).toMatch(/capabilities\.tools\s+same/)
    expect(run.stdout).toMatch(/tool echo\s+same/)
    expect(run.stdout).toContain('no drift')
    expect(run.code, run.stdout + run.stderr).toBe(0)
  }, 30_000)

  it('prints each difference of a drifted card and exits 1; --json says drift', async () => {
    const text = await parallax('inspect', '--card', `${base(drifting)}/.well-known/mcp/server-card`, `mcp:${drifting.url}`)
    expect(text.code, text.stdout + text.stderr).toBe(1)
    expect(text.stdout).toMatch(/version\s+changed\s+card "2\.3\.0"\s+server "2\.4\.0"/)
    expect(text.stdout).toMatch(/capabilities\.prompts\s+only in card/)
    expect(text.stdout).toMatch(/capabilities\.tools\s+changed/)
    expect(text.stdout).toMatch(/tool search\s+only in card/)
    expect(text.stdout).toMatch(/tool echo\s+changed.*\/inputSchema/)
    expect(text.stdout).toContain('drift: the server differs from its card')

    const json = await parallax('inspect', '--card', base(drifting), '--json')
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout)
    expect(report.format).toBe('parallax.card-drift/1')
    expect(report.drift).toBe(true)
    expect(report.primitives).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tool', name: 'search', state: 'only in card' }),
        expect.objectContaining({ kind: 'tool', name: 'echo', state: 'changed' }),
      ]),
    )
    expect(report.claims).toContainEqual({ field: 'version', state: 'changed', card: '2.3.0', server: '2.4.0' })
  }, 30_000)

  it('refuses a URL with no card, saying where it looked', async () => {
    const run = await parallax('inspect', '--card', `${base(honest)}/nothing/here.json`)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`no server card at ${base(honest)}/nothing/here.json: HTTP 404`)
  }, 30_000)
})
