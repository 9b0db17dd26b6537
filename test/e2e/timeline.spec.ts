import type { Page } from '@playwright/test'
import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

/** The Timeline's canvas: what it draws, as it says on itself (the range, how many spans). */
async function drawnRange(page: Page): Promise<{ from: number; to: number; spans: number }> {
  const canvas = page.getByTestId('timeline-canvas').first()
  const data = await canvas.evaluate((c: HTMLCanvasElement) => ({ ...c.dataset }))
  return { from: Number(data.from), to: Number(data.to), spans: Number(data.spans) }
}

test('the demo MCP server on the Timeline: spans by outcome, zoom, pan, brush filters Frames, a click opens a span’s frames', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  await openDemo(page, 'Tools:')

  await test.step('a few calls, one of them failing', async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Call', exact: true }).click()
      await expect(page.getByTestId('call-result')).toBeVisible()
    }
  })

  await test.step('the Timeline draws the session on its lanes', async () => {
    await page.getByRole('tab', { name: /Timeline/ }).click()
    const axis = page.getByTestId('time-axis')
    await expect(axis.locator('[data-lane="requests"]')).toBeVisible()
    await expect.poll(async () => (await drawnRange(page)).spans).toBeGreaterThan(3)
    await page.screenshot({ path: 'test-results/timeline-mcp-dark.png' })
  })
})
