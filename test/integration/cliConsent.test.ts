import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { cliRunner } from '../fixtures/cli'

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const SERVER = fileURLToPath(new URL('../fixtures/servers/versionedTools.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'parallax-cli-consent-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const parallax = cliRunner(join(dir, 'data'))

/** A config file naming a real MCP server, started through a wrapper that leaves a marker behind. */
function config(name: string, version: 'v1' | 'v2'): { file: string; marker: string } {
  const marker = join(dir, `${name}-${version}.ran`)
  const wrapper = join(dir, 'wrapper.mjs')
  writeFileSync(
    wrapper,
    `import { writeFileSync } from 'node:fs'\nwriteFileSync(process.env.MARKER, '')\nawait import(${JSON.stringify(pathToFileURL(SERVER).href)})\n`,
  )
  const file = join(dir, `${name}-${version}.json`)
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { orders: { command: process.execPath, args: ['--import', TSX, wrapper, version], env: { MARKER: marker } } },
    }),
  )
  return { file, marker }
}

describe('the CLI runs what its user typed, and asks about commands from a config file', () => {
  it('refuses a config command it has never run (no terminal to ask on), runs it with --yes, and remembers exactly that', async () => {
    const first = config('orders', 'v1')
    const refused = await parallax('inspect', 'orders', '--config', first.file, '--probes', '0')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/"orders" from .*orders-v1\.json would run .*wrapper\.mjs v1, which you have not approved\. .*--yes/)
    expect(existsSync(first.marker)).toBe(false)

    const approved = await parallax('inspect', 'orders', '--config', first.file, '--probes', '0', '--yes', '--json')
    expect(approved.code).toBe(0)
    expect(JSON.parse(approved.stdout).handshake.serverInfo.name).toBe('fixture-orders')
    expect(existsSync(first.marker)).toBe(true)

    const remembered = await parallax('inspect', 'orders', '--config', first.file, '--probes', '0', '--json')
    expect(remembered.code).toBe(0)

    // The same name with another argument is another command: asked again, with what changed.
    const changed = config('orders', 'v2')
    const again = await parallax('inspect', 'orders', '--config', changed.file, '--probes', '0')
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(
      /changed since you approved it: arguments added: "v2"; arguments removed: "v1"; environment: MARKER changed/,
    )
    expect(existsSync(changed.marker)).toBe(false)
  }, 60_000)

  it('runs an inline stdio: command without asking: the user typed it', async () => {
    const { code, stdout } = await parallax('inspect', `stdio:${process.execPath} --import ${TSX} ${SERVER} v1`, '--probes', '0', '--json')
    expect(code).toBe(0)
    expect(JSON.parse(stdout).handshake.serverInfo.version).toBe('1.0.0')
  }, 30_000)
})
