import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from '../fixtures/cli'
import { fixtureTarget } from '../fixtures/targets'

// A one-shot command is over when its work is: the answer is printed as soon as it is known, and the command
// exits soon after, whatever the server does when its stdin closes; a connection that fails leaves nothing
// running either.

const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-exits-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const require = createRequire(import.meta.url)
const EVERYTHING = `stdio:${process.execPath} ${join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')} stdio`
const stubbornSpec = fixtureTarget('stubborn').spec as { command: string; args: string[] }
/** A server that keeps running when its stdin closes, and ignores SIGTERM. */
const STUBBORN = `stdio:${[stubbornSpec.command, ...stubbornSpec.args].join(' ')}`

interface TimedRun {
  code: number | null
  stdout: string
  stderr: string
  /** Milliseconds from the start until stdout was complete (its last chunk), and until the process exited. */
  printedAt: number
  exitedAt: number
}

/** Runs the CLI as a user would, timing when it printed and when it exited; killed after `limitMs`. */
function timed(args: string[], env: Record<string, string> = {}, limitMs = 20_000): Promise<TimedRun> {
  return new Promise((resolve) => {
    const started = performance.now()
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PARALLAX_DATA_DIR: join(dir, 'data'), ...env },
    })
    const run = { stdout: '', stderr: '', printedAt: NaN }
    child.stdout.on('data', (chunk) => {
      run.stdout += chunk
      run.printedAt = performance.now() - started
    })
    child.stderr.on('data', (chunk) => (run.stderr += chunk))
    const limit = setTimeout(() => child.kill('SIGKILL'), limitMs)
    child.on('exit', (code) => {
      clearTimeout(limit)
      const exitedAt = performance.now() - started
      child.on('close', () => resolve({ ...run, code, exitedAt }))
    })
  })
}

describe('a one-shot command exits when its work is done', () => {
  it('inspect under --profile mcp-2026 of a server that speaks only the 2025 era: the error once, exit 2 at once (stdio)', async () => {
    for (const target of [EVERYTHING, 'demo:tools']) {
      const run = await timed(['inspect', target, '--yes', '--profile', 'mcp-2026'])
      expect(run.code, `${target}: ${run.stderr}`).toBe(2)
      expect(run.exitedAt).toBeLessThan(5_000)
      const errors = run.stderr.split('\n').filter((line) => line.startsWith('parallax inspect: '))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/cannot connect: the server did not take MCP 2026-07-28 .*this profile asks for the 2026 era only/)

      const json = await timed(['inspect', target, '--yes', '--json', '--profile', 'mcp-2026'])
      expect(json.code).toBe(2)
      expect(json.exitedAt).toBeLessThan(5_000)
      expect(JSON.parse(json.stdout)).toMatchObject({ format: 'parallax.inspect/1', error: { kind: 'connection' } })
    }
  }, 60_000)

  it('inspect and call of a server that ignores its stdin closing and SIGTERM: printed at once, exited well within the old 2 s grace', async () => {
    const inspect = await timed(['inspect', STUBBORN, '--json'])
    expect(inspect.code, inspect.stderr).toBe(0)
    expect(JSON.parse(inspect.stdout)).toMatchObject({
      format: 'parallax.inspect/1',
      handshake: { serverInfo: { name: 'fixture-stubborn' } },
    })
    // stdin closed, 200 ms, SIGTERM (ignored), 200 ms, SIGKILL: the report is out before any of it.
    expect(inspect.exitedAt - inspect.printedAt).toBeGreaterThanOrEqual(350)
    expect(inspect.exitedAt - inspect.printedAt).toBeLessThan(1_000)

    const call = await timed(['call', STUBBORN, 'echo', '--json'])
    expect(call.code, call.stderr).toBe(0)
    expect(JSON.parse(call.stdout)).toMatchObject({ format: 'parallax.call/1', response: { content: [{ text: 'still here' }] } })
    expect(call.exitedAt - call.printedAt).toBeLessThan(1_000)
  }, 60_000)

  it('the grace is PARALLAX_EXIT_GRACE_MS when set, and a value that is no number of milliseconds is refused', async () => {
    const slow = await timed(['inspect', STUBBORN, '--json', '--probes', '0'], { PARALLAX_EXIT_GRACE_MS: '1000' })
    expect(slow.code, slow.stderr).toBe(0)
    expect(slow.exitedAt - slow.printedAt).toBeGreaterThanOrEqual(1_900) // 1 s after stdin closed, 1 s after SIGTERM

    const wrong = await timed(['inspect', STUBBORN, '--probes', '0'], { PARALLAX_EXIT_GRACE_MS: 'soon' })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('PARALLAX_EXIT_GRACE_MS must be a whole number of milliseconds from 0 to 60000')
  }, 60_000)
})
