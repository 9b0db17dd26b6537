import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

// The MCP era on a connection's page: a 2.x server that speaks only 2026-07-28, and a 2025 server the
// default profile falls back to; each says how the era was negotiated and which rules it keeps.

const server = (file: string, ...flags: string[]) =>
  [process.execPath, '--import', 'tsx', `test/fixtures/servers/${file}.ts`, ...flags].join(' ')

test('the handshake shows the MCP era and how it was negotiated; discovery and keepalive say which rule applied', async ({
  page,
  host,
}) => {
  await page.goto(host.url)

  await test.step('a server that speaks only 2026-07-28: the 2026 era, through server/discover', async () => {
    await addAndConnect(page, { name: 'modern-only', command: server('modern', '--modern-only') })
    await page.getByRole('tab', { name: /Handshake/ }).click()
    await expect(page.getByTestId('negotiated-era')).toHaveText('2026 era')
    await expect(page.getByTestId('negotiated-version')).toHaveText('2026-07-28')
    await expect(page.getByTestId('era-summary')).toContainText('negotiated 2026-07-28: server/discover offered 2026-07-28')
    const step = page.getByTestId('era-steps').locator('tbody tr')
    await expect(step).toHaveCount(1)
    await expect(step).toHaveAttribute('data-method', 'server/discover')
    await expect(step).toContainText('supports 2026-07-28')
    await expect(step).toContainText('taken')
    await expect(page.getByTestId('era-rules')).toContainText('capabilities from server/discover')
    await expect(page.getByTestId('era-rules')).toContainText('on a subscriptions/listen stream (2026 era): asked for tools')
    await page.getByTestId('era-negotiation').scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'test-results/e2e-artifacts/mcp-era-2026.png', fullPage: true })
  })

  await test.step('Discovery and Keepalive say the rule: capabilities from server/discover; tools/list, since the era has no ping', async () => {
    await page.getByRole('tab', { name: /Discovery/ }).click()
    await expect(page.getByTestId('discovery-rules')).toContainText('capabilities from server/discover (2026 era)')
    await page.getByRole('tab', { name: /Keepalive/ }).click()
    await expect(page.getByTestId('probe-kind')).toHaveText('tools/list')
    await expect(page.getByTestId('probe-rule')).toContainText('the 2026 era has no ping')
  })

  await test.step('a 2025 server: server/discover not taken (-32601), then initialize; ping-free rules do not apply', async () => {
    await addAndConnect(page, { name: 'growing', command: server('growingTools') })
    await page.getByRole('tab', { name: /Handshake/ }).click()
    await expect(page.getByTestId('negotiated-era')).toHaveText('2025 era')
    await expect(page.getByTestId('era-summary')).toContainText('fell back to the 2025 era')
    const steps = page.getByTestId('era-steps').locator('tbody tr')
    await expect(steps).toHaveCount(2)
    await expect(steps.nth(0)).toContainText('error -32601 Method not found')
    await expect(steps.nth(0)).toContainText('not taken')
    await expect(steps.nth(1)).toHaveAttribute('data-method', 'initialize')
    await expect(page.getByTestId('era-rules')).toContainText('capabilities from initialize (2025 era)')
    await page.getByTestId('era-negotiation').scrollIntoViewIfNeeded()
    await page.screenshot({ path: 'test-results/e2e-artifacts/mcp-era-2025.png', fullPage: true })
  })

  await test.step('Compare puts one server under the 2025 profile and the 2026 profile side by side', async () => {
    await addAndConnect(page, { name: 'both-eras', command: server('modern') })
    await page
      .getByRole('button', { name: /Compare/ })
      .first()
      .click()
    await page.getByLabel('Target A').selectOption({ label: 'both-eras' })
    await page.getByLabel('Profile A').selectOption('mcp-2025')
    await page.getByLabel('Target B').selectOption({ label: 'both-eras' })
    await page.getByLabel('Profile B').selectOption('mcp-2026')
    await page.getByRole('button', { name: 'Compare', exact: true }).click()
    const era = page.getByTestId('compare-handshake').locator('tr', { has: page.locator('td.mono', { hasText: /^era$/ }) })
    await expect(era).toContainText('"2025"', { timeout: 30_000 })
    await expect(era).toContainText('"2026"')
    const version = page.getByTestId('compare-handshake').locator('tr', { has: page.locator('td.mono', { hasText: /^protocolVersion$/ }) })
    await expect(version).toContainText('2025-11-25')
    await expect(version).toContainText('2026-07-28')
    await expect(page.getByTestId('compare-catalog').locator('[data-name="echo"]')).toContainText('same')
    await page.screenshot({ path: 'test-results/e2e-artifacts/mcp-era-compare.png', fullPage: true })
  })
})
