import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
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

  it('reads a registry server.json (no capabilities: no claim), and says where a card departs from the draft', async () => {
    const documents: Record<string, (endpoint: string) => unknown> = {
      '/server.json': (endpoint) => ({
        $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server.schema.json',
        name: 'io.github.parallax/fixture-modern',
        version: '2.4.0',
        remotes: [{ type: 'streamable-http', url: endpoint }],
        packages: [{ registryType: 'npm', identifier: '@parallax/fixture-modern', transport: { type: 'stdio' } }],
        tools: truthful(endpoint).tools,
      }),
      '/sloppy-card.json': (endpoint) => ({ ...truthful(endpoint), $schema: undefined, name: 'fixture', version: '^2.4.0' }),
    }
    const files = createServer((req, res) => {
      const document = documents[req.url ?? '']
      if (!document) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document(honest.url)))
    })
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve))
    const at = `http://127.0.0.1:${(files.address() as AddressInfo).port}`
    try {
      const registry = await parallax('inspect', '--card', `${at}/server.json`)
      expect(registry.stdout, registry.stderr).toContain(`server.json ${at}/server.json`)
      expect(registry.stdout).toContain('package @parallax/fixture-modern (run locally: not checked)')
      expect(registry.stdout).not.toContain('capabilities.')
      expect(registry.stdout).toMatch(/tool echo\s+same/)
      expect(registry.code, registry.stdout).toBe(0)

      const sloppy = await parallax('inspect', '--card', `${at}/sloppy-card.json`, '--json')
      const report = JSON.parse(sloppy.stdout)
      expect(report.card.problems).toEqual([
        'no $schema: the draft requires the schema URI',
        'name "fixture" is not reverse-DNS with exactly one slash (namespace/server)',
        'version "^2.4.0" is a range: the draft wants one version',
      ])
      expect(report.drift).toBe(true)
      expect(sloppy.code).toBe(1)
    } finally {
      files.closeAllConnections()
      await new Promise<void>((resolve) => files.close(() => resolve()))
    }
  }, 30_000)
})
