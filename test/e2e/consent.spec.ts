import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { expect, test } from './webHostProcess'

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const HOSTILE = fileURLToPath(new URL('../fixtures/servers/hostileNames.ts', import.meta.url))

/** A config whose one server, if it ever starts, leaves a marker file: proof that it ran. */
function trackerConfig(dir: string, marker: string, extraArg?: string): string {
  const file = join(dir, `mcp-${extraArg ?? 'first'}.json`)
  const script = "require('fs').writeFileSync(process.argv[1], 'ran')"
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { tracker: { command: process.execPath, args: ['-e', script, marker, ...(extraArg ? [extraArg] : [])] } },
    }),
  )
  return file
}

test('an imported command runs from nowhere without the user agreeing: Connect, Compare and Replay all ask', async ({ page, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-consent-'))
  const marker = join(dir, 'ran')
  try {
    await page.goto(host.url)
    await page.locator('input[type="file"]').setInputFiles(trackerConfig(dir, marker))
    // The import dialog shows the command in full; adding it runs nothing.
    await expect(page.getByTestId('import-entries')).toContainText(marker)
    await page.getByRole('button', { name: 'Add 1 entry' }).click()
    await expect(page.locator('[data-target="import:tracker"]')).toBeVisible()

    await test.step('Connect asks, and Cancel runs nothing', async () => {
      await page.locator('[data-target="import:tracker"]').click()
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      await expect(page.getByTestId('approval')).toHaveAttribute('data-kind', 'command')
      await expect(page.getByTestId('spawn-command')).toContainText(marker)
      await page.getByRole('button', { name: 'Cancel' }).click()
    })

    await test.step('Compare asks too', async () => {
      await page
        .getByRole('button', { name: /Compare/ })
        .first()
        .click()
      await page.getByLabel('Target A').selectOption('import:tracker')
      await page.getByLabel('Target B').selectOption('demo:prompts')
      await page.getByRole('button', { name: 'Compare', exact: true }).click()
      await expect(page.getByTestId('spawn-command')).toContainText(marker)
      await page.screenshot({ path: 'test-results/consent-compare.png' })
      await page.getByRole('button', { name: 'Cancel' }).click()
    })

    await test.step('Replay asks too', async () => {
      await page
        .getByRole('button', { name: /Replay/ })
        .first()
        .click()
      await page.locator('[data-recording="media-buying"]').click()
      await page.getByLabel('Target A').selectOption('import:tracker')
      await page.getByRole('button', { name: 'Run all' }).click()
      await expect(page.getByTestId('spawn-command')).toContainText(marker)
      await page.getByRole('button', { name: 'Cancel' }).click()
    })
    await page.waitForTimeout(300)
    expect(existsSync(marker)).toBe(false)

    await test.step('approved once, it runs', async () => {
      await page.locator('[data-target="import:tracker"]').click()
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      await page.getByTestId('approve').click()
      await expect.poll(() => existsSync(marker), { timeout: 10_000 }).toBe(true)
      // It speaks no MCP: once Parallax has given up on it (restarts included), nothing of it runs again.
      await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 60_000 })
    })

    await test.step('re-imported with another argument, it asks again and shows what changed', async () => {
      rmSync(marker)
      await page.locator('input[type="file"]').setInputFiles(trackerConfig(dir, marker, '--exfiltrate'))
      await expect(page.getByTestId('import-entries')).toContainText('replaces the saved “tracker”')
      await page.getByRole('button', { name: 'Add 1 entry' }).click()
      await page.locator('[data-target="import:tracker"]').click()
      await page
        .getByRole('button', { name: /Connect|Reconnect/, exact: false })
        .first()
        .click()
      await expect(page.getByTestId('approval-changes')).toContainText('--exfiltrate')
      await page.screenshot({ path: 'test-results/consent-changed.png' })
      await page.getByRole('button', { name: 'Cancel' }).click()
      await page.waitForTimeout(300)
      expect(existsSync(marker)).toBe(false)
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('names that hide characters are shown with them visible, and long names and instructions stay inside their boxes', async ({
  page,
  host,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(host.url)
  await page.getByRole('button', { name: '+ Add server' }).click()
  await page.getByLabel('Name').fill('hostile names')
  await page.getByLabel('Command').fill(`${process.execPath} --import ${TSX} ${HOSTILE}`)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })

  await expect(page.locator('main, .main').first()).toContainText('hostile⟨U+001B⟩[2J-names')
  const instructions = page.getByTestId('instructions')
  await expect(instructions.getByRole('button', { name: /Show all/ })).toBeVisible()
  const box = await instructions.boundingBox()
  expect(box!.height).toBeLessThan(260) // collapsed, not a wall of text

  await page.getByRole('tab', { name: /Catalog/ }).click()
  const names = page.locator('.item-name')
  await expect(names.filter({ hasText: 'search⟨U+202E⟩fdp.exe' })).toHaveCount(1)
  await expect(names.filter({ hasText: 'get⟨U+200B⟩weather' })).toHaveCount(1)
  await expect(page.locator('mark.hidden-char')).toHaveCount(2)
  // Nothing spills out of its box horizontally.
  const overflowing = await page
    .locator('.item > summary')
    .evaluateAll((rows) => rows.filter((r) => r.scrollWidth > r.clientWidth + 1).length)
  expect(overflowing).toBe(0)
  await page.screenshot({ path: 'test-results/hidden-characters.png' })
})
