import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { ROOT } from './webHostProcess'

const require = createRequire(import.meta.url)
const electronDir = dirname(require.resolve('electron/package.json'))
const hasBinary = existsSync(join(electronDir, 'path.txt'))

test.skip(!hasBinary, 'Electron binary not installed on this machine (npm start fetches it once where its release host is reachable)')

test('the desktop window opens the UI with a sandboxed, Node-free renderer', async () => {
  const app = await electron.launch({ args: [ROOT, '--no-sandbox'], cwd: ROOT, env: { ...process.env, PARALLAX_HOST: 'electron' } })
  try {
    const page = await app.firstWindow()
    await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')
    expect(await page.evaluate(() => Object.keys((globalThis as unknown as { parallax: object }).parallax).sort())).toEqual([
      'invoke',
      'onEvents',
    ])
    // Navigation away and new windows are denied.
    await page.evaluate(() => (globalThis as unknown as { open(url: string): unknown }).open('https://example.com'))
    expect(app.windows()).toHaveLength(1)
    await page.getByRole('button', { name: 'Open' }).nth(1).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
    await page.screenshot({ path: 'test-results/electron-prompt-only.png' })
  } finally {
    await app.close()
  }
})
