import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'
import { startModernHttpServer, type RunningModernServer } from '../fixtures/modernServers'

// `parallax inspect` against servers that speak only MCP 2026-07-28 (the 2.x SDK, refusing 2025 clients),
// over stdio and streamable HTTP: the era it negotiated, how, and a keepalive that works there (no ping).

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-eras-'))
const parallax = cliRunner(join(dir, 'data'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let server: RunningModernServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const MODERN = fileURLToPath(new URL('../fixtures/servers/modern.ts', import.meta.url))
const stdio2026Only = (...flags: string[]) => `stdio:${process.execPath} --import ${TSX} ${MODERN} --modern-only ${flags.join(' ')}`.trim()

interface Report {
  handshake: {
    era: string
    protocolVersion: string
    negotiation: { ask: string; steps: { method: string; offered: string[]; accepted: boolean; answer: string }[]; summary: string }
    rules: { discovery: string; listChanged: string; keepalive: string }
  }
  keepalive: { probe: string; rule: string; state: string; probes: { probe: string; ok: boolean; rule?: string }[] }
  frames: { direction: string; method?: string }[]
}

function expect2026(report: Report, probe: string) {
  expect(report.handshake).toMatchObject({
    era: '2026',
    protocolVersion: '2026-07-28',
    negotiation: { ask: 'negotiate', steps: [{ method: 'server/discover', offered: ['2026-07-28'], accepted: true }] },
    rules: { discovery: expect.stringContaining('server/discover') },
  })
  expect(report.keepalive).toMatchObject({ probe, state: 'healthy', rule: expect.stringContaining('no ping') })
  expect(report.keepalive.probes).toHaveLength(2)
  expect(report.keepalive.probes.every((p) => p.ok && p.probe === probe)).toBe(true)
  const methods = report.frames.map((f) => f.method)
  expect(methods).not.toContain('ping')
  expect(methods).not.toContain('initialize')
  expect(report.frames.filter((f) => f.direction === 'in' && f.method === probe).length).toBeGreaterThanOrEqual(2)
}

describe('parallax inspect, a server that speaks only MCP 2026-07-28', () => {
  it('over stdio: the 2026 era through server/discover, and tools/list keepalive probes that are answered', async () => {
    const run = await parallax('inspect', stdio2026Only(), '--yes', '--json', '--frames', '--probes', '2', '--interval', '200')
    expect(run.code, run.stderr).toBe(0)
    expect2026(JSON.parse(run.stdout) as Report, 'tools/list')
  }, 60_000)

  it('over stdio, as text: the era, what was offered and answered, and the keepalive rule', async () => {
    const run = await parallax('inspect', stdio2026Only('--prompts-only'), '--yes', '--probes', '2', '--interval', '200')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/ {2}era {9}2026 era — negotiated 2026-07-28: server\/discover offered 2026-07-28/)
    expect(run.stdout).toMatch(/ {2}offered {5}server\/discover 2026-07-28 → supports 2026-07-28/)
    expect(run.stdout).toMatch(/keepalive by server\/discover every 200 ms: healthy/)
    expect(run.stdout).toMatch(/rule {6}server\/discover: the 2026 era has no ping/)
    expect(run.stdout).toMatch(/ok {3}server\/discover .* ms\n {2}ok {3}server\/discover/)
    expect(run.stdout).toContain('no findings')
  }, 60_000)

  it('over streamable HTTP: the same, and server/discover keeps a server without tools alive', async () => {
    server = await startModernHttpServer('reject')
    const withTools = await parallax('inspect', `mcp:${server.url}`, '--json', '--frames', '--probes', '2', '--interval', '200')
    expect(withTools.code, withTools.stderr).toBe(0)
    expect2026(JSON.parse(withTools.stdout) as Report, 'tools/list')
    await server.close()

    server = await startModernHttpServer('reject', { promptsOnly: true })
    const promptsOnly = await parallax('inspect', `mcp:${server.url}`, '--json', '--frames', '--probes', '2', '--interval', '200')
    expect(promptsOnly.code, promptsOnly.stderr).toBe(0)
    expect2026(JSON.parse(promptsOnly.stdout) as Report, 'server/discover')
  }, 60_000)

  it('under --profile mcp-2025 it is refused, and the error says the server speaks only the 2026 era', async () => {
    server = await startModernHttpServer('reject')
    for (const target of [stdio2026Only(), `mcp:${server.url}`]) {
      const run = await parallax('inspect', target, '--yes', '--json', '--profile', 'mcp-2025')
      expect(run.code).toBe(2)
      const { error } = JSON.parse(run.stdout) as { error: { kind: string; message: string } }
      expect(error.kind).toBe('connection')
      expect(error.message).toMatch(/Unsupported protocol version: 2025-11-25: the server speaks only 2026-07-28 \(the 2026 era\)/)
    }
  }, 60_000)
})
