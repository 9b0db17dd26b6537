import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { openUiClient } from '../../web/client'
import { fixtureTarget } from '../fixtures/targets'
import { expect, test, type RunningWebHost } from './webHostProcess'
import { addAndConnect } from './flows'

// Rough edges a newcomer hit: a notice that would not go, a toast that went too soon, a filter that did not
// stay, one frame under three numbers, a timeout that was not the truth, ids cut in half.

/** Saves one of the fixture servers as the user's own target (approved, as the editor does) and connects it from its page. */
async function connectFixture(page: Page, host: RunningWebHost, target: ReturnType<typeof fixtureTarget>, name: string): Promise<void> {
  const client = await openUiClient(host)
  const { origin: _origin, id: _id, ...draft } = target
  const saved = await client.invoke('targets.save', { ...draft, name, approve: true })
  await client.close()
  await page.goto(host.url)
  await page.locator(`[data-target="${saved.id}"]`).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
}

/** The number a Frames row shows in its first column. */
const rowNumber = (row: Locator) => row.locator('> span').first().innerText()

test('a restart notice can be dismissed; "Saved … Open in Replay" waits for the user while other toasts go; "hide probes" stays', async ({
  page,
  host,
}) => {
  test.setTimeout(90_000)
  const dir = mkdtempSync(join(tmpdir(), 'parallax-rough-'))
  try {
    await connectFixture(page, host, fixtureTarget('dying', ['once', join(dir, 'died')], { reconnectBaseDelayMs: 300 }), 'Dies once')
    const toast = page.getByRole('status')

    await test.step('the restart is said in a notice and a toast; the toast goes by itself, the notice when dismissed', async () => {
      const notice = page.getByTestId('restart-notice')
      await expect(notice).toContainText('restarted', { timeout: 20_000 })
      await expect(toast).toContainText('Dies once restarted')
      await expect(toast).toHaveCount(0, { timeout: 8_000 })
      await expect(notice).toBeVisible()
      await page.screenshot({ path: 'test-results/rough-restart-notice.png' })
      await notice.getByRole('button', { name: 'Dismiss' }).click()
      await expect(notice).toHaveCount(0)
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page.getByRole('tab', { name: /Handshake/ }).click()
      await expect(notice).toHaveCount(0)
      await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
    })

    await test.step('a recording saved: its toast offers Replay and stays', async () => {
      await page.getByRole('button', { name: '● Record' }).click()
      await page.getByRole('button', { name: '■ Stop recording' }).click()
      await expect(toast).toContainText('Saved "Dies once')
      await expect(toast.getByRole('button', { name: 'Open in Replay' })).toBeVisible()
    })
    const savedAt = Date.now()

    await test.step('"hide probes" stays set across tabs and targets', async () => {
      await page.getByRole('tab', { name: /Frames/ }).click()
      const hide = page.getByLabel('Hide keepalive probes')
      await hide.check()
      for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Probe now' }).click()
      await expect(page.getByTestId('frame-count')).toHaveText(/^\d+ of \d+ frames$/)
      await expect(page.locator('.rows [data-probe="true"]')).toHaveCount(0)
      await page.getByRole('tab', { name: /Log/ }).click()
      await page.getByRole('tab', { name: /Frames/ }).click()
      await expect(hide).toBeChecked()
      await expect(page.locator('.rows [data-probe="true"]')).toHaveCount(0)
      await page.locator('[data-target="demo:tools"]').click()
      await page.locator('.target', { hasText: 'Dies once' }).click()
      await page.getByRole('tab', { name: /Frames/ }).click()
      await expect(hide).toBeChecked()
      await expect(page.locator('.rows [data-probe="true"]')).toHaveCount(0)
    })

    await test.step('the saved toast is still there well after an ordinary one would have gone, and takes the user to Replay', async () => {
      await page.waitForTimeout(Math.max(0, savedAt + 9_000 - Date.now()))
      await expect(toast).toContainText('Saved "Dies once')
      await page.screenshot({ path: 'test-results/rough-saved-toast.png' })
      await toast.getByRole('button', { name: 'Open in Replay' }).click()
      await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible()
      await expect(toast).toHaveCount(0)
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('one frame has one number: the link to it, the drawer and the Frames list say the same, a turn’s frames too', async ({
  page,
  host,
}) => {
  test.setTimeout(90_000)
  await page.goto(host.url)
  await addAndConnect(page, { name: 'server-logs', command: `${process.execPath} --import tsx test/fixtures/servers/serverLogs.ts` })

  await test.step('a log line’s frame: the link, the drawer and the Frames tab', async () => {
    await page.getByRole('tab', { name: /Log/ }).click()
    const link = page.getByTestId('log').locator('.log-row', { hasText: 'fixture-server-logs is up' }).locator('.frame-link')
    const number = /^frame #(\d+)$/.exec(await link.innerText())?.[1]
    expect(number, 'the link names the frame by its number').toBeDefined()
    await link.click()
    const drawer = page.getByTestId('frames-drawer')
    await expect(drawer.locator('.detail-head')).toContainText(`#${number} notifications/message`)
    expect(await rowNumber(drawer.locator('.rows [aria-selected="true"]'))).toBe(number)
    await page.screenshot({ path: 'test-results/rough-frame-drawer.png' })
    await page.keyboard.press('Escape')
    await page.getByRole('tab', { name: /Frames/ }).click()
    const row = page.locator('.rows [role="option"]').filter({ has: page.locator(`> span:first-child:text-is("${number}")`) })
    await expect(row).toHaveAttribute('data-method', 'notifications/message')
  })

  await test.step('a replayed turn’s frames are numbered as in their connection, not from 1', async () => {
    await page
      .getByRole('button', { name: /Replay/ })
      .first()
      .click()
    await page.locator('[data-recording="media-buying"]').click()
    await page.getByLabel('Target A').selectOption('demo:tools')
    await page.getByLabel('Target B').selectOption('')
    await page.getByText('Keep connections').click()
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 30_000 })
    await page.locator('[data-turn="2"] .replay-row-head').click()
    await page.locator('[data-turn="2"]').getByRole('button', { name: 'Frames', exact: true }).click()
    const drawer = page.getByTestId('frames-drawer')
    const first = drawer.locator('.rows [role="option"]').first()
    const number = await rowNumber(first)
    const method = await first.getAttribute('data-method')
    expect(Number(number), 'turn 2 starts after the handshake and turn 1').toBeGreaterThan(5)
    await first.click()
    await expect(drawer.locator('.detail-head')).toContainText(`#${number} ${method}`)
    await page.screenshot({ path: 'test-results/rough-turn-frames.png' })
    await page.keyboard.press('Escape')

    // The same connection's frames whole, from the target's page: the same number names the same frame.
    await page.locator('[data-target="demo:tools"]').click()
    await page.getByTestId('other-connections').getByRole('button', { name: 'Frames' }).click()
    const same = drawer.locator('.rows [role="option"]').filter({ has: page.locator(`> span:first-child:text-is("${number}")`) })
    await expect(same).toHaveAttribute('data-method', method!)
  })
})

test('a waiting request says when it will time out, as it will: progress restarts the wait, without progress it does not', async ({
  page,
  host,
}) => {
  await connectFixture(page, host, fixtureTarget('serverLogs', [], { requestTimeoutMs: 1000 }), 'server-logs 1 s')
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
  await page.getByRole('tab', { name: /Calls/ }).click()
  const deadline = page.locator('.in-flight-foot')

  await test.step('with progress: three seconds of work under a one-second timeout, and it is answered', async () => {
    await page.getByLabel('Tool to call').selectOption('slow')
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill('{"steps": 60}')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(page.getByTestId('progress')).toContainText(/of 60/)
    // The engine stamps events with its monotonic clock, the page counts down with its wall clock: on a busy
    // machine the two drift a few tenths of a second apart, so a 1 s wait may read up to 1.4 s.
    await expect(deadline).toHaveText(
      /^Times out in (0\.\d|1\.[0-4]) s unless the server answers or reports progress: each report gives it 1 s more, with no overall limit\.$/,
    )
    await page.waitForTimeout(1_500)
    await expect(deadline).toContainText('unless the server answers or reports progress')
    await page.screenshot({ path: 'test-results/rough-timeout-progress.png' })
    await expect(page.getByTestId('response')).toContainText('done', { timeout: 10_000 })
    await expect(page.getByTestId('in-flight')).toHaveCount(0)
  })

  await test.step('without progress: it times out when it says', async () => {
    await page.getByRole('tab', { name: 'Any request' }).click()
    await page.getByLabel('Method').fill('tools/call')
    await page.getByRole('checkbox', { name: 'ask for progress' }).uncheck()
    await page.getByLabel('Params (JSON)').fill('{"name": "slow", "arguments": {"steps": 60}}')
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await expect(deadline).toHaveText(/^Times out in (0\.\d|1\.0) s without an answer \(the request timeout, 1 s\)\.$/)
    await page.screenshot({ path: 'test-results/rough-timeout-plain.png' })
    await expect(page.getByTestId('in-flight')).toHaveCount(0, { timeout: 3_000 })
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.getByTestId('timeline')).toContainText('no answer within 1000 ms; notifications/cancelled sent')
  })
})

test('A2A frame ids are readable: whole when they fit, else shortened with the whole on hover', async ({ page, host }) => {
  await page.goto(host.url)
  await page.locator('[data-target="demo:a2a"]').click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
  await page.getByRole('button', { name: 'Probe now' }).click()
  await page.getByRole('tab', { name: /Frames/ }).click()
  const ids = page.locator('.rows [role="option"] > span:nth-child(6)')
  await expect(ids.filter({ hasText: /^http-\d+$/ }).first()).toBeVisible()
  const shown = await ids.evaluateAll((cells) =>
    cells.map((cell) => ({ text: cell.textContent ?? '', title: cell.getAttribute('title'), cut: cell.scrollWidth > cell.clientWidth })),
  )
  for (const id of shown) {
    expect(id.cut, `the id ${id.text} overflows its column`).toBe(false)
    if (id.text.endsWith('…')) expect(id.title?.startsWith(id.text.slice(0, -1)), `${id.text} has its whole as a tooltip`).toBe(true)
  }
  await page.screenshot({ path: 'test-results/rough-a2a-ids.png' })
})
