import type { Page } from '@playwright/test'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

/** The fixture server with log messages and progress (test/fixtures/servers/serverLogs.ts), as a user types its command. */
const SERVER_LOGS = `${process.execPath} --import tsx test/fixtures/servers/serverLogs.ts`

/** Calls a tool from the Calls tab with raw JSON arguments, then comes back to the Log tab. */
async function callTool(page: Page, tool: string, args: Record<string, unknown>) {
  await page.getByRole('tab', { name: /Calls/ }).click()
  await page.getByLabel('Tool to call').selectOption(tool)
  await page.getByRole('button', { name: 'JSON', exact: true }).click()
  await page.getByLabel('Raw arguments (JSON)').fill(JSON.stringify(args))
  await page.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Call', exact: true })).toBeEnabled()
  await page.getByRole('tab', { name: /Log/ }).click()
}

test("the server's own voice: log messages with level and logger, logging/setLevel, oddities flagged, no plumbing in red", async ({
  page,
  host,
}) => {
  await page.goto(host.url)

  await test.step('add the server and connect in one go', async () => {
    await addAndConnect(page, { name: 'server-logs', command: SERVER_LOGS })
  })

  const log = page.getByTestId('log')
  const row = (text: string | RegExp) => log.locator('.log-row', { hasText: text })

  await test.step('its hello on initialize: level info, logger "startup"', async () => {
    await page.getByRole('tab', { name: /Log/ }).click()
    const hello = row('fixture-server-logs is up')
    await expect(hello).toHaveAttribute('data-source', 'server')
    await expect(hello).toHaveAttribute('data-level', 'info')
    await expect(hello.locator('.src')).toHaveText('startup')
    await expect(hello.locator('.lvl')).toHaveText('info')
  })

  await test.step('ask for warning and above: logging/setLevel goes out and the control shows what the server agreed to', async () => {
    const level = page.getByLabel('Level the server sends (logging/setLevel)')
    await expect(level).toHaveValue('')
    await level.selectOption('warning')
    await expect(row('asked the server for log messages at "warning" and above')).toBeVisible()
    await expect(level).toHaveValue('warning')
  })

  await test.step('a critical message from the "db" logger is red, with its level and logger', async () => {
    await callTool(page, 'log', { level: 'critical', logger: 'db', data: { error: 'disk full' } })
    const critical = row('disk full')
    await expect(critical).toHaveAttribute('data-level', 'critical')
    await expect(critical).toHaveClass(/lvl-critical/)
    await expect(critical.locator('.src')).toHaveText('db')
    expect(await critical.evaluate((el) => getComputedStyle(el).color)).toBe(
      await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bad').trim()).then(rgbOf),
    )
  })

  await test.step('a long call with progress: no red line of the engine (the SDK’s "unknown progress token")', async () => {
    await callTool(page, 'slow', { steps: 3 })
    await expect(row('done').or(row('progress'))).toHaveCount(0)
    await expect(log.locator('.log-row', { hasText: 'unknown token' })).toHaveCount(0)
    await expect(log.locator('.log-row[data-level="error"]:not([data-source="server"])')).toHaveCount(0)
  })

  await test.step('a debug message after agreeing to warning: flagged as a protocol oddity, with why', async () => {
    await callTool(page, 'log', { level: 'debug', data: 'too chatty' })
    const oddity = log.locator('.log-row.oddity')
    await expect(oddity).toHaveCount(1)
    await expect(oddity).toContainText('the server sent a "debug" log message after agreeing to send "warning" and above')
    await expect(oddity.locator('.oddity-mark')).toHaveText('oddity')
    await expect(oddity).toHaveAttribute('data-level', 'warning') // a warning of Parallax's, not an error
    await expect(page.getByRole('tab', { name: /Log/ }).locator('.count')).toHaveClass(/warn/)
    await expect(page.locator('[data-target] .count.warn')).toHaveText('1')
  })

  await test.step('progress for a token never given: an oddity too', async () => {
    await callTool(page, 'stray-progress', {})
    await expect(log.locator('.log-row.oddity', { hasText: 'never gave it' })).toBeVisible()
    await page.screenshot({ path: 'test-results/server-voice-log.png' })
  })

  await test.step('filter by level: error and above', async () => {
    await page.getByLabel('Lowest level shown').selectOption('error')
    await expect(row('disk full')).toBeVisible()
    await expect(row('fixture-server-logs is up')).toHaveCount(0)
    await expect(log.locator('.log-row.oddity')).toHaveCount(0)
    await expect(page.getByTestId('log-count')).toHaveText(/^1 of \d+ lines$/)
    await page.getByLabel('Lowest level shown').selectOption('debug')
    await page.getByLabel('Filter log').fill('db')
    await expect(log.locator('.log-row')).toHaveCount(1)
  })

  await test.step('a server line links to the frame that carried it', async () => {
    await row('disk full').getByRole('button', { name: 'frame' }).click()
    await expect(page.getByText('notifications/message').first()).toBeVisible()
  })
})

/** `#f85149` or `rgb(…)` as the `rgb(r, g, b)` getComputedStyle reports. */
function rgbOf(color: string): string {
  if (color.startsWith('rgb')) return color
  const n = parseInt(color.slice(1), 16)
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`
}
