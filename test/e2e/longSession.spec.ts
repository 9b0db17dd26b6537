import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { decodeFrameRows } from '../../shared/contract'
import { openApprovedTarget, openUiClient, type UiClient } from '../../web/client'
import { expect, ROOT, test } from './webHostProcess'

// Opening the app on a long session: a server that floods 100,000 log messages (200,000 events and more) into a
// real web host, then the page loads. The Frames view is there at once with the whole count and the newest
// rows; any other row is fetched by position when it is shown; a frame is found by its number; the filter and the
// search run over every frame the session has, not only those the page holds.

const NOTIFICATIONS = 100_000
/** The flood's frames: one per notification, and the handshake and discovery's 7 (the flood starts among them). */
const FRAMES = NOTIFICATIONS + 7

/** The benchmark's flood server (bench/floodServer.ts): `count` log notifications, as fast as the pipe takes them. */
const flood = (count: number) => ({
  name: `flood ${count}`,
  spec: {
    kind: 'mcp-stdio' as const,
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'bench', 'floodServer.ts'), String(count)],
    env: {},
  },
  options: { keepaliveIntervalMs: 3_600_000 },
})

/** Waits until the engine has kept every frame of the connection's session. */
async function flooded(ui: UiClient, connectionId: string, frames: number): Promise<void> {
  await expect
    .poll(async () => (await ui.invoke('sessions.list', {})).find((s) => s.connectionId === connectionId)?.frames ?? 0, {
      timeout: 90_000,
      intervals: [500],
    })
    .toBeGreaterThanOrEqual(frames)
}

/** Which of the flood's lines frame number `number` carries, as the engine has it. */
async function floodLineOf(ui: UiClient, connectionId: string, number: number): Promise<number> {
  const { rows } = await ui.invoke('frames.rows', { connectionId, from: number - 1, count: 1 })
  const [seq] = decodeFrameRows(rows).seq
  const { payloads } = await ui.invoke('frames.payloads', { connectionId, seqs: [seq] })
  return (payloads[0] as { params: { data: { i: number } } }).params.data.i
}

const frameRows = (page: Page) => page.getByRole('listbox', { name: 'Frames' }).getByRole('option')
const row = (page: Page, number: number) =>
  page.getByRole('listbox', { name: 'Frames' }).locator(`[role="option"][data-number="${number}"]`)

test('the app opens on a long session at once, fetches what it shows, finds a frame by number, filters and searches every frame', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000)
  let ui = await openUiClient(host)
  const { targetId, connectionId } = await openApprovedTarget(ui, flood(NOTIFICATIONS))
  await ui.close() // the test's own client keeps every event it gets: it leaves before the flood
  ui = await openUiClient(host)
  await flooded(ui, connectionId, FRAMES)

  await test.step('the page opens on the Frames view with the whole count and the newest rows, quickly', async () => {
    const started = Date.now()
    await page.goto(host.url)
    await page.locator(`button[data-target="${targetId}"]`).click()
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.getByTestId('frame-count')).toHaveText(`${FRAMES.toLocaleString('en-US')} frames`, { timeout: 5000 })
    await expect(row(page, FRAMES)).toHaveAttribute('data-method', 'notifications/message')
    const openMs = Date.now() - started
    test
      .info()
      .annotations.push({ type: 'open', description: `${openMs} ms to the Frames view on ${FRAMES.toLocaleString('en-US')} frames` })
    expect(openMs).toBeLessThan(5000)
    await expect(page.getByRole('tab', { name: /Log/ })).toContainText((NOTIFICATIONS + 1).toLocaleString('en-US'))
    await page.screenshot({ path: 'test-results/long-session-tail.png' })
  })

  await test.step('scrolled to the top, the first frames arrive in place of quiet placeholders', async () => {
    await page.getByRole('listbox', { name: 'Frames' }).evaluate((el) => (el.scrollTop = 0))
    await expect(row(page, 1)).toBeVisible()
    await expect(row(page, 1)).toHaveAttribute('data-direction', 'out')
    await expect(row(page, 12)).toHaveAttribute('data-method', 'notifications/message')
    await expect(page.getByTestId('frame-placeholder')).toHaveCount(0)
    await page.screenshot({ path: 'test-results/long-session-top.png' })
  })

  await test.step('a frame found by its number is selected, shown in the list and whole in the detail', async () => {
    await page.getByLabel('Go to frame number').fill('54,321')
    await page.getByLabel('Go to frame number').press('Enter')
    await expect(frameRows(page).and(page.locator('[aria-selected="true"]'))).toHaveAttribute('data-number', '54321')
    await expect(page.getByLabel('Frame detail')).toContainText(`"log line ${await floodLineOf(ui, connectionId, 54_321)}"`)
  })

  await test.step('the filter counts every frame of the session, the engine finding those the page does not hold', async () => {
    const filter = page.getByLabel('Filter frames by method')
    await filter.fill('tools/list')
    await expect(page.getByTestId('frame-count')).toHaveText(`2 of ${FRAMES.toLocaleString('en-US')} frames`)
    await expect(frameRows(page)).toHaveCount(2)
    await filter.fill('notifications/message')
    await expect(page.getByTestId('frame-count')).toHaveText(
      `${NOTIFICATIONS.toLocaleString('en-US')} of ${FRAMES.toLocaleString('en-US')} frames`,
    )
    await page.getByRole('listbox', { name: 'Frames' }).evaluate((el) => (el.scrollTop = 0))
    await expect(frameRows(page).first()).toHaveAttribute('data-method', 'notifications/message')
    expect(await floodLineOf(ui, connectionId, Number(await frameRows(page).first().getAttribute('data-number')))).toBe(0)
    await filter.fill('')
  })

  await test.step('a search of the whole session streams its hits; one clicked is selected', async () => {
    await page.getByRole('button', { name: 'Search…' }).click()
    const search = page.getByRole('searchbox', { name: 'Search this session' })
    await search.fill('log line 77777')
    await search.press('Enter')
    await expect(page.getByTestId('search-summary')).toHaveText(/^1 frame \(and 1 log line\) in [\d,]+ events$/, { timeout: 20_000 })
    await page.getByRole('listbox', { name: 'Search hits' }).getByRole('option').click()
    const selected = frameRows(page).and(page.locator('[aria-selected="true"]'))
    await expect(selected).toHaveAttribute('data-method', 'notifications/message')
    expect(await floodLineOf(ui, connectionId, Number(await selected.getAttribute('data-number')))).toBe(77_777)
    await expect(page.getByLabel('Frame detail')).toContainText('"log line 77777"')
    await page.screenshot({ path: 'test-results/long-session-search.png' })
  })

  await test.step('the Log view lists every line, the newest with their text', async () => {
    await page.getByRole('tab', { name: /Log/ }).click()
    await expect(page.getByTestId('log-count')).toHaveText(`${(NOTIFICATIONS + 1).toLocaleString('en-US')} lines`)
    await expect(page.getByTestId('log').locator('.log-row', { hasText: `log line ${NOTIFICATIONS - 1}"` })).toBeVisible()
  })
  await ui.close()
})
