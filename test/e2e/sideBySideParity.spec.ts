import type { Page } from '@playwright/test'
import { expect, test } from './webHostProcess'

/** The same two calls on each demo tool server: one without a buyer context, one with it (what the echo bug changes). */
const CALLS = ['{"name_search": "audio"}', '{"name_search": "audio", "context": {"buyer_ref": "r-7"}}']

async function connectAndCall(page: Page, targetId: string, record = false) {
  await page.locator(`[data-target="${targetId}"]`).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
  if (record) await page.getByRole('button', { name: '● Record' }).click()
  await page.getByRole('tab', { name: /Conversation/ }).click()
  for (const [n, args] of CALLS.entries()) {
    await page.getByLabel('Tool').selectOption('list_creative_formats')
    await page.getByLabel('Arguments (JSON)').fill(args)
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(n + 1)
  }
  if (record) {
    await page.getByRole('button', { name: '■ Stop recording' }).click()
    await expect(page.getByRole('button', { name: '● Record' })).toBeVisible()
  }
}

/**
 * Side by side of the plain demo (left) and the echo bug (right): turn 1 the same, turn 2 differing by
 * the echoed `seller_normalized`; the toggle hides turn 1.
 */
async function expectEchoBugHighlighted(page: Page, screenshot: string) {
  const rows = page.locator('.sbs-row')
  await expect(rows).toHaveCount(2)
  await expect(page.locator('.sbs-row[data-turn="1"]')).toHaveAttribute('data-status', 'same')
  const differing = page.locator('.sbs-row[data-turn="2"]')
  await expect(differing).toHaveAttribute('data-status', 'differs')
  await expect(differing.getByTestId('turn-status')).toHaveText('differs')
  await expect(differing.getByTestId('turn-diff')).toContainText('/data/context/seller_normalized')
  // The plain demo on the left, the echo bug on the right: the bug adds the key.
  await expect(differing.getByTestId('turn-diff').locator('li.diff-add')).toHaveCount(1)
  // The demo is an AdCP seller: its turns are compared, and named, in AdCP's task statuses.
  await expect(differing.getByTestId('turn-outcome')).toHaveText(['AdCP completed', 'AdCP completed'])
  await expect(page.getByTestId('sbs-summary')).toContainText('1 same')
  await expect(page.getByTestId('sbs-summary')).toContainText('1 differ')
  await page.screenshot({ path: `test-results/${screenshot}.png` })
  await page.getByLabel('Only differing turns').check()
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toHaveAttribute('data-turn', '2')
  await page.screenshot({ path: `test-results/${screenshot}-only-differing.png` })
  await page.getByLabel('Only differing turns').uncheck()
  await expect(rows).toHaveCount(2)
}

test('side by side of the echo-bug demo and the plain one highlights seller_normalized, live and replayed', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('the same two calls on the echo-bug demo and on the plain demo (recorded)', async () => {
    await connectAndCall(page, 'demo:tools', true)
    await connectAndCall(page, 'demo:tools-changed-context')
  })

  await test.step('the two live sessions side by side: the differing turn is badged, with its diff', async () => {
    await page
      .getByRole('button', { name: /Side by side/ })
      .first()
      .click()
    const labels = await page.getByLabel('Left connection').locator('option').allTextContents()
    await page.getByLabel('Left connection').selectOption({ label: labels.find((l) => l.startsWith('Demo media-sales agent ·'))! })
    await page.getByLabel('Right connection').selectOption({ label: labels.find((l) => l.includes('(echo bug)'))! })
    await expectEchoBugHighlighted(page, 'side-by-side-echo-bug')
  })

  await test.step('a replay of the recording against both: its conversations side by side say the same', async () => {
    await page
      .getByRole('button', { name: /Replay/ })
      .first()
      .click()
    await page.locator('[data-recording]:not([data-recording="media-buying"])').click()
    await page.getByLabel('Target A').selectOption('demo:tools')
    await page.getByLabel('Target B').selectOption('demo:tools-changed-context')
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('2 of 2 turn(s) · done', { timeout: 20_000 })
    await expect(page.locator('[data-turn="2"]')).toHaveAttribute('data-status', 'differs')
    await page.getByRole('button', { name: 'Conversations side by side' }).click()
    await expectEchoBugHighlighted(page, 'side-by-side-echo-bug-replayed')
  })
})
