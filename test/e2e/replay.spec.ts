import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

test('record a connection, then replay the demo session MCP vs A2A with the differing turn expanded', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('record a session from a connection page', async () => {
    await openDemo(page, 'Tools:')
    await page.getByRole('button', { name: '● Record' }).click()
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await page.getByLabel('Tool').selectOption('list_creative_formats')
    await page.getByLabel('Arguments (JSON)').fill('{"name_search": "audio"}')
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(1)
    await page.getByRole('button', { name: '■ Stop recording' }).click()
    await expect(page.getByRole('button', { name: '● Record' })).toBeVisible()
  })

  await test.step('the library holds the demo recording and the new one', async () => {
    await page
      .getByRole('button', { name: /Replay/ })
      .first()
      .click()
    await expect(page.locator('[data-recording]')).toHaveCount(2)
  })

  await test.step('replay the demo session against both faces of the demo agent', async () => {
    await page.locator('[data-recording="media-buying"]').click()
    await expect(page.getByTestId('replay-turns').locator('[data-turn]')).toHaveCount(4)
    await page.getByLabel('Target A').selectOption('demo:tools')
    await page.getByLabel('Target B').selectOption('demo:a2a')
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 20_000 })
    await expect(page.getByTestId('parity-summary')).toContainText('3 same')
    await expect(page.getByTestId('parity-summary')).toContainText('1 differ')
    await expect(page.locator('[data-turn="4"]')).toHaveAttribute('data-status', 'differs')
    await expect(page.getByTestId('turn-diff')).toContainText('/data/media_buy_deliveries/0/pricing_model')
    await page.screenshot({ path: 'test-results/replay-side-by-side.png' })
  })

  await test.step('both sides on one time axis; aligned by turn 4, the turn that differs begins together on both', async () => {
    const shared = page.getByTestId('shared-timeline')
    await shared.scrollIntoViewIfNeeded()
    const canvases = shared.getByTestId('timeline-canvas')
    await expect(canvases).toHaveCount(2)
    const from = (i: number) => canvases.nth(i).evaluate((c: HTMLCanvasElement) => Number(c.dataset.from))
    await expect.poll(() => canvases.nth(1).evaluate((c: HTMLCanvasElement) => Number(c.dataset.spans))).toBeGreaterThan(0)
    await shared.getByRole('radio', { name: 'turn' }).click()
    await shared.getByLabel('Turn to align').selectOption('4')
    await expect.poll(async () => (await from(0)) !== (await from(1))).toBe(true)
    await page.screenshot({ path: 'test-results/replay-timeline.png' })
  })
})
