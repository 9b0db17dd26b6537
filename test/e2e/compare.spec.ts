import { expect, test } from './webHostProcess'

test('compare minimal vs hinted profiles: the hinted tools appear, each linked to the frame that showed it', async ({ page, host }) => {
  await page.goto(host.url)
  await page
    .getByRole('button', { name: /Compare/ })
    .first()
    .click()
  await page.getByLabel('Target A').selectOption('demo:tools')
  await page.getByLabel('Profile A').selectOption('minimal')
  await page.getByLabel('Target B').selectOption('demo:tools')
  await page.getByLabel('Profile B').selectOption('hinted')
  await page.getByRole('button', { name: 'Compare', exact: true }).click()
  const catalog = page.getByTestId('compare-catalog')
  await expect(catalog.locator('.compare-item.added')).toHaveCount(2, { timeout: 20_000 })
  await expect(catalog.locator('[data-name="forecast_delivery"]')).toContainText('only in B')
  await expect(page.getByTestId('compare-handshake')).toContainText('offered by the client')
  await page.screenshot({ path: 'test-results/compare.png' })

  // The frame opens in a drawer over the comparison, which stays as it was behind it.
  await catalog
    .locator('[data-name="forecast_delivery"]')
    .getByRole('button', { name: /^B #\d+$/ })
    .click()
  const drawer = page.getByTestId('frames-drawer')
  await expect(drawer).toContainText(/Demo media-sales agent · compare c1 B \(hinted\) · \d\d:\d\d:\d\d · closed/)
  await expect(drawer.locator('.detail-body')).toContainText('forecast_delivery')
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
  await expect(catalog.locator('.compare-item.added')).toHaveCount(2)
})
