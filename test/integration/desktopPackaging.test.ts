import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CHECK = join(ROOT, 'electron', 'checkPackaging.mjs')
const dir = mkdtempSync(join(tmpdir(), 'parallax-desktop-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `npm run desktop:check [config]`: electron-builder's own validation, offline (no Electron binary is needed). */
function check(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHECK, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('desktop packaging (electron-builder)', () => {
  it('passes electron-builder’s validation with the app’s name, icon and every platform’s package', async () => {
    const { code, output } = await check()
    expect(output).toContain("passes electron-builder's validation; icon 1024×1024")
    expect(code).toBe(0)
    const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')
    expect(config).toMatch(/^productName: Parallax$/m)
    expect(config).toMatch(/^ {2}target: \[AppImage, deb\]$/m)
    expect(config).toMatch(/^ {2}target: dmg$/m)
    expect(config).toMatch(/^ {2}target: nsis$/m)
  })

  it('refuses a configuration electron-builder would refuse, saying what is wrong', async () => {
    const broken = join(dir, 'electron-builder.yml')
    writeFileSync(broken, readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8').replace('linux:\n', 'linux:\n  sandboxWindows: true\n'))
    const { code, output } = await check(broken)
    expect(code).toBe(1)
    expect(output).toContain('desktop packaging is not valid')
    expect(output).toContain('configuration.linux')
  })
})
