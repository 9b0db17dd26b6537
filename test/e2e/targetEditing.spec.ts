import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

/** The fixture server with log messages (test/fixtures/servers/serverLogs.ts): it advertises `logging` unless given `unadvertised`. */
const SERVER_LOGS = `${process.execPath} --import tsx test/fixtures/servers/serverLogs.ts`

test('save and connect; edit a target while connected: it applies on reconnect, and the page says so', async ({ page, host }) => {
  await page.goto(host.url)
  const loggingCap = page.locator('.cap', { hasText: /^✓ logging$/ })

  await test.step('Save and connect: saved, selected and connected at once, with no second question', async () => {
    await addAndConnect(page, { name: 'logs', command: SERVER_LOGS })
    await expect(page.getByTestId('approval')).toHaveCount(0)
    await expect(page.locator('.page-title')).toHaveText('logs')
    await expect(loggingCap).toBeVisible()
  })

  await test.step('Edit is there while connected, and the editor says when the change applies', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await expect(page.getByTestId('editing-live')).toContainText('your changes apply when it reconnects')
    await expect(page.getByRole('button', { name: 'Save and reconnect' })).toBeVisible()
    await page.locator('#t-cmd').fill(`${SERVER_LOGS} unadvertised`)
    await page.locator('#t-name').fill('logs, edited')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
  })

  await test.step('the live connection keeps what it was opened with, and the page says the edit waits for a reconnect', async () => {
    await expect(page.getByTestId('edited-notice')).toContainText('your changes apply when it reconnects')
    await expect(page.locator('.page-title')).toHaveText('logs, edited')
    await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/)
    await expect(loggingCap).toBeVisible() // still the server as it was started
    await page.screenshot({ path: 'test-results/edited-while-connected.png' })
  })

  await test.step('Reconnect now: the edited command runs, and the notice goes', async () => {
    await page.getByTestId('edited-notice').getByRole('button', { name: 'Reconnect now' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
    await expect(page.locator('.cap', { hasText: /^logging$/ })).toBeVisible({ timeout: 20_000 }) // not advertised any more
    await expect(page.getByTestId('edited-notice')).toHaveCount(0)
  })

  await test.step('Save and reconnect does it in one go', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await page.locator('#t-cmd').fill(SERVER_LOGS)
    await page.getByRole('button', { name: 'Save and reconnect' }).click()
    await expect(loggingCap).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/)
    await expect(page.getByTestId('edited-notice')).toHaveCount(0)
  })
})

test('import lets the user pick which entries to add, each command in full; consent still applies on connect', async ({ page, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-pick-'))
  const marker = join(dir, 'ran')
  const config = join(dir, 'claude_desktop_config.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        logs: { command: process.execPath, args: ['--import', 'tsx', 'test/fixtures/servers/serverLogs.ts'], env: { LOG_TOKEN: 'x' } },
        tracker: { command: process.execPath, args: ['-e', "require('fs').writeFileSync(process.argv[1], 'ran')", marker] },
        remote: { url: 'http://127.0.0.1:9/mcp' },
        broken: { args: ['no command'] },
      },
      a2aAgents: { sales: { url: 'http://127.0.0.1:9' } },
    }),
  )
  try {
    await page.goto(host.url)

    await test.step('the dialog lists every entry with a checkbox and what it runs; what cannot be used is named', async () => {
      await page.locator('input[type="file"]').setInputFiles(config)
      const entries = page.getByTestId('import-entries')
      await expect(entries.locator('li')).toHaveCount(4)
      await expect(entries.locator('li', { hasText: 'tracker' })).toContainText(marker)
      await expect(entries.locator('li', { hasText: 'logs' })).toContainText('test/fixtures/servers/serverLogs.ts')
      await expect(entries.locator('li', { hasText: 'logs' })).toContainText('environment: LOG_TOKEN')
      await expect(entries.locator('li', { hasText: 'remote' })).toContainText('http://127.0.0.1:9/mcp')
      await expect(page.getByRole('dialog')).toContainText('mcpServers.broken: needs either "command" (stdio) or "url" (HTTP)')
      await expect(page.getByRole('button', { name: 'Add 4 entries' })).toBeEnabled()
      await page.getByLabel('Add remote').uncheck()
      await page.getByLabel('Add sales').uncheck()
      await page.screenshot({ path: 'test-results/import-picker.png' })
      await page.getByRole('button', { name: 'Add 2 entries' }).click()
    })

    await test.step('only the picked entries are added, and nothing ran', async () => {
      await expect(page.locator('[data-target="import:logs"]')).toBeVisible()
      await expect(page.locator('[data-target="import:tracker"]')).toBeVisible()
      await expect(page.locator('[data-target="import:remote"]')).toHaveCount(0)
      await expect(page.locator('[data-target="import:sales"]')).toHaveCount(0)
      expect(existsSync(marker)).toBe(false)
    })

    await test.step('connecting one still asks first, showing exactly what will run', async () => {
      await page.locator('[data-target="import:logs"]').click()
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      await expect(page.getByTestId('spawn-command')).toContainText('test/fixtures/servers/serverLogs.ts')
      await page.getByTestId('approve').click()
      await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
    })

    await test.step('import again, picking none: the button says so and nothing changes', async () => {
      await page.locator('input[type="file"]').setInputFiles(config)
      await expect(page.getByTestId('import-entries').locator('li', { hasText: 'logs' })).toContainText('replaces the saved “logs”')
      await page.locator('.import-all input').uncheck()
      await expect(page.getByRole('button', { name: 'Add 0 entries' })).toBeDisabled()
      await page.getByRole('button', { name: 'Cancel' }).click()
      await expect(page.locator('[data-target="import:remote"]')).toHaveCount(0)
    })
    expect(existsSync(marker)).toBe(false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
