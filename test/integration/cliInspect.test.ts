import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createToolServer } from '../../shared/demo/mcpServers'
import { startStreamableServer } from '../fixtures/httpServers'

const CLI = fileURLToPath(new URL('../../cli/parallax.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function parallax(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('parallax inspect', () => {
  it('prints one parallax.inspect/1 object for the prompt-only demo, with tools/list skipped and ping probes', async () => {
    const { code, stdout } = await parallax('inspect', 'demo:prompts', '--json', '--probes', '2', '--interval', '150', '--frames')
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    const report = JSON.parse(lines[0])
    expect(report).toMatchObject({
      format: 'parallax.inspect/1',
      protocol: 'mcp',
      transport: 'stdio',
      handshake: { protocolVersion: expect.any(String), requestedProtocolVersion: expect.any(String), serverCapabilities: { prompts: {} } },
      keepalive: { probe: 'ping', intervalMs: 150, state: 'healthy' },
    })
    expect(report.discovery.find((d: { method: string }) => d.method === 'tools/list')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('"tools"') })
    expect(report.prompts.map((p: { name: string }) => p.name)).toEqual(['media_brief', 'campaign_review'])
    expect(report.keepalive.probes).toHaveLength(2)
    expect(report.keepalive.probes.every((p: { ok: boolean; probe: string }) => p.ok && p.probe === 'ping')).toBe(true)
    expect(report.frames.some((f: { method?: string }) => f.method === 'tools/list')).toBe(false)
    expect(report.frames[0]).toMatchObject({ direction: 'out', method: 'initialize', id: 0 })
  })

  it('reads a target from an mcpServers config file and redacts its secrets', async () => {
    const server = await startStreamableServer(createToolServer)
    try {
      const config = join(dir, 'mcp.json')
      writeFileSync(config, JSON.stringify({ mcpServers: { sales: { url: server.url, headers: { Authorization: 'Bearer s3cret' } } } }))
      const { code, stdout } = await parallax('inspect', 'sales', '--config', config, '--json')
      expect(code).toBe(0)
      const report = JSON.parse(stdout)
      expect(report.transport).toBe('streamable-http')
      expect(report.tools).toHaveLength(3)
      expect(report.keepalive.probe).toBe('tools/list')
      expect(stdout).not.toContain('s3cret')
      expect(report.target.spec.headers.Authorization).toBe('[redacted]')
    } finally {
      await server.close()
    }
  })

  it('prints a human report without --json', async () => {
    const { code, stdout, stderr } = await parallax('inspect', 'demo:resources')
    expect(code).toBe(0)
    expect(stdout).toMatch(/parallax-demo-inventory .* over stdio/)
    expect(stdout).toMatch(/skipped tools\/list\s+server did not advertise the "tools" capability/)
    expect(stdout).toMatch(/resources \(8\)/)
    expect(stderr).toContain('connecting to')
  })

  it('exits 2 with a one-line reason when the target cannot be reached or is misused', async () => {
    const unreachable = await parallax('inspect', 'stdio:/nonexistent/server --flag', '--json')
    expect(unreachable.code).toBe(2)
    expect(unreachable.stdout).toBe('')
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1)
    expect(unreachable.stderr).toMatch(/cannot connect to .*ENOENT/)

    const unknown = await parallax('inspect', 'nowhere')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/unknown target "nowhere"/)

    const badFlag = await parallax('inspect', 'demo:prompts', '--probes', 'many')
    expect(badFlag.code).toBe(2)
    expect(badFlag.stderr).toMatch(/--probes must be a whole number/)

    const noTarget = await parallax('inspect')
    expect(noTarget.code).toBe(2)
  })
})
