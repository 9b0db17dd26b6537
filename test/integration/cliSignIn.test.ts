import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CLI, cliRunner } from '../fixtures/cli'
import { startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'

// The CLI where a person can sign in: a terminal (a pseudo-terminal, from `script`) on a desktop (DISPLAY
// set), whose system browser is a stand-in first on PATH (`xdg-open`): it writes down the arguments it was
// given and follows the URL as a browser would, and the authorization server approves at once.

let dir: string
let server: OAuthMcpFixture | undefined

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parallax-cli-sign-in-'))
  const bin = join(dir, 'bin')
  mkdirSync(bin)
  const browser = join(bin, 'xdg-open')
  writeFileSync(
    browser,
    `#!${process.execPath}\n` +
      `require('node:fs').appendFileSync(${JSON.stringify(join(dir, 'opened.log'))}, JSON.stringify(process.argv.slice(2)) + '\\n')\n` +
      `fetch(process.argv[2]).then((r) => r.text()).catch(() => {})\n`,
  )
  chmodSync(browser, 0o755)
})
afterEach(async () => {
  await server?.stop()
  server = undefined
  rmSync(dir, { recursive: true, force: true })
})

/** What the stand-in browser was handed, one list of arguments per time it was run. */
const opened = (): string[][] =>
  existsSync(join(dir, 'opened.log'))
    ? readFileSync(join(dir, 'opened.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as string[])
    : []

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** `parallax ...args` on a terminal of a desktop: its stdout (one JSON object with --json), what the terminal showed, its exit code. */
function onDesktop(...args: string[]): Promise<{ code: number | null; json: Record<string, unknown>; terminal: string }> {
  const out = join(dir, 'stdout.json')
  const command = `${[process.execPath, CLI, ...args].map(quote).join(' ')} > ${quote(out)}`
  return new Promise((resolve) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, DISPLAY: ':99', PARALLAX_DATA_DIR: join(dir, 'data') },
    })
    let terminal = ''
    child.stdout.on('data', (chunk: Buffer) => (terminal += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (terminal += chunk.toString()))
    child.on('close', (code) =>
      resolve({
        code,
        json: JSON.parse(readFileSync(out, 'utf8') || '{}') as Record<string, unknown>,
        terminal: terminal.replace(/\r/g, ''),
      }),
    )
  })
}

describe('signing in from the command line, where a browser can open', () => {
  it('a server asking for more access mid-call: the browser opens to sign in again, on the same registration, and the call goes again', async () => {
    server = await startOAuthMcpServer()
    const run = await onDesktop('call', `mcp:${server.url}`, 'place_order', '--json')
    expect(run.code, run.terminal).toBe(0)
    expect(JSON.stringify(run.json.response)).toContain('ordered')
    expect(run.json.findings).toEqual([])
    expect(run.terminal).toContain('the server asks for more access: sign in again in your browser (opening it)')
    expect(run.terminal).toContain('signed in: mcp:read mcp:write')
    // Two sign-ins (connecting, then the step-up), each URL handed over as one argument, the second asking for both scopes.
    const urls = opened()
    expect(urls.map((args) => args.length)).toEqual([1, 1])
    expect(urls.map(([url]) => new URL(url).searchParams.get('scope'))).toEqual(['mcp:read', 'mcp:read mcp:write'])
    expect(server.provider.clients.size).toBe(1)
  }, 60_000)

  it('without a browser here: the step-up fails at once, naming the scopes and what to do', async () => {
    server = await startOAuthMcpServer()
    // Signed in for mcp:read on a desktop first; then the call from a script (no terminal).
    expect((await onDesktop('call', `mcp:${server.url}`, 'whoami', '--json')).code).toBe(0)
    const run = await cliRunner(join(dir, 'data'))('call', `mcp:${server.url}`, 'place_order', '--json')
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as { error?: string; findings: string[] }
    expect(report.error).toMatch(
      /^the server asks for more access \(scope "mcp:write", HTTP 403 insufficient_scope\) and nobody is here to sign in again/,
    )
    expect(report.error).toContain('--scope')
    expect(opened()).toHaveLength(1)
    expect(server.provider.clients.size).toBe(1)
  }, 60_000)

  it('an authorization server whose sign-in page is a file: nothing is opened, and the CLI says why', async () => {
    server = await startOAuthMcpServer({ metadata: { authorization_endpoint: 'file:///etc/passwd' } })
    const run = await onDesktop('inspect', `mcp:${server.url}`, '--json')
    expect(run.code).toBe(2)
    expect((run.json.error as { message: string }).message).toMatch(
      /cannot sign in to .*: the authorization server cannot be used: its authorization_endpoint "file:\/\/\/etc\/passwd" is refused: its scheme is file:/,
    )
    expect(run.terminal).toContain('its authorization_endpoint "file:///etc/passwd" is refused')
    expect(opened()).toEqual([])
  }, 60_000)
})
