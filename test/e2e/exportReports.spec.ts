import { readFileSync } from 'node:fs'
import type { Download, Page } from '@playwright/test'
import { expect, test } from './webHostProcess'

/** Clicks Export report and reads the file the browser downloaded. */
async function exportReport(page: Page): Promise<{ name: string; html: string }> {
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export report', exact: true }).click(),
  ])
  return { name: download.suggestedFilename(), html: readFileSync((await download.path())!, 'utf8') }
}

/** What every report is: one page with no script and nothing loaded from elsewhere. */
function expectSelfContained(html: string) {
  expect(html).toMatch(/^<!doctype html>/)
  expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`)
  expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=/i)
}

test('Export report in Replay and in Compare downloads what is on screen as one self-contained HTML file', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('Replay: the demo session MCP vs A2A, exported with every turn’s badge', async () => {
    await page
      .getByRole('button', { name: /Replay/ })
      .first()
      .click()
    await page.locator('[data-recording="media-buying"]').click()
    await expect(page.getByRole('button', { name: 'Export report' })).toBeDisabled() // nothing to report before it is replayed
    await page.getByLabel('Target A').selectOption('demo:tools')
    await page.getByLabel('Target B').selectOption('demo:a2a')
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 20_000 })

    const { name, html } = await exportReport(page)
    expect(name).toBe('parity-media-buying.html')
    expectSelfContained(html)
    expect(html).toContain('<h1>Parity of media-buying</h1>')
    expect(html).toContain('A: Demo media-sales agent · B: Demo media-sales agent (A2A) · 4 turn(s)')
    expect(html).toContain('<span class="badge same">3 same</span> <span class="badge differs">1 differs</span>')
    for (const [turn, status] of [
      [1, 'same'],
      [2, 'same'],
      [3, 'same'],
      [4, 'differs'],
    ])
      expect(html).toMatch(
        new RegExp(`data-turn="${turn}" data-status="${status}">\\n<summary><span class="badge ${status}">${status}</span>`),
      )
    expect(html).toContain('<td class="path">/data/media_buy_deliveries/0/pricing_model</td>')
  })

  await test.step('Compare: the demo over MCP vs over A2A, a table of every operation, exported', async () => {
    await page
      .getByRole('button', { name: /Compare/ })
      .first()
      .click()
    await expect(page.getByRole('button', { name: 'Export report' })).toBeDisabled()
    await page.getByLabel('Target A').selectOption('demo:tools')
    await page.getByLabel('Profile A').selectOption('')
    await page.getByLabel('Target B').selectOption('demo:a2a')
    await page.getByLabel('Profile B').selectOption('')
    await page.getByRole('button', { name: 'Compare', exact: true }).click()

    const catalog = page.getByTestId('compare-catalog')
    await expect(catalog.getByRole('columnheader')).toHaveText(['Kind', 'Name', 'A', 'B', 'Status', 'Frames'], { timeout: 20_000 })
    const rows = catalog.locator('tbody tr')
    await expect(rows).toHaveCount(6)
    await expect(page.locator('.section-title', { hasText: 'Catalog' })).toContainText('5 same, 0 only in A, 1 only in B, 0 changed')
    const report = catalog.locator('[data-name="get_media_buy_delivery"]')
    await expect(report.getByRole('cell')).toHaveText(['operation', 'get_media_buy_delivery', '—', '✓', 'only in B', /^B #\d+$/])
    for (const same of ['create_media_buy', 'get_adcp_capabilities', 'get_media_buys', 'get_products', 'list_creative_formats'])
      await expect(catalog.locator(`[data-name="${same}"]`).getByRole('cell').nth(4)).toHaveText('same')
    // Frame links look like links: the accent colour, underlined.
    const link = report.getByRole('button', { name: /^B #\d+$/ })
    await expect(link).toHaveClass(/\blink\b/)
    await expect(link).toHaveCSS('text-decoration-line', 'underline')
    await page.getByTestId('compare-result').screenshot({ path: 'test-results/compare-table.png' })

    const { name, html } = await exportReport(page)
    expect(name).toBe('compare-Demo-media-sales-agent-vs-Demo-media-sales-agent-A2A.html')
    expectSelfContained(html)
    expect(html).toContain('<h1>Compare Demo media-sales agent vs Demo media-sales agent (A2A)</h1>')
    expect(html).toContain(
      '<span class="badge same">5 same</span> <span class="badge removed">0 only in A</span> <span class="badge added">1 only in B</span>',
    )
    expect(html).toMatch(
      /<tr data-name="get_media_buy_delivery" data-status="only in B"><td>operation<\/td><td class="path">get_media_buy_delivery<\/td><td>—<\/td><td>✓<\/td>/,
    )
    expect(html.match(/data-status="same"/g)).toHaveLength(5)
  })
})
