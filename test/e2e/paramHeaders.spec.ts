import type { Page } from '@playwright/test'
import { startParamHeaderServer, type RunningParamHeaderServer } from '../fixtures/paramHeaderServer'
import { expectHealthy } from './flows'
import { expect, test } from './webHostProcess'

// SEP-2243 in the UI, against a 2.x SDK server over streamable HTTP: the tool with an invalid x-mcp-header
// is flagged in the Catalog and not called; a call of the valid one shows its Mcp-Param header on its frame.

let server: RunningParamHeaderServer | undefined
test.afterEach(async () => {
  await server?.close()
  server = undefined
})

async function addHttpServer(page: Page, name: string, url: string): Promise<void> {
  await page.getByRole('button', { name: '+ Add server' }).click()
  await page.locator('#t-name').fill(name)
  await page.getByRole('button', { name: 'MCP over HTTP' }).click()
  await page.locator('#t-url').fill(url)
  await page.getByRole('button', { name: 'Save and connect' }).click()
  await expectHealthy(page, 30_000)
}

test('a tool with an invalid x-mcp-header is flagged in the Catalog and not called; a valid call shows its Mcp-Param header', async ({
  page,
  host,
}) => {
  server = await startParamHeaderServer()
  await page.goto(host.url)
  await addHttpServer(page, 'regions', server.url)

  await test.step('the Catalog: a warning on bad_region, saying why, its Call disabled; execute_sql as usual', async () => {
    await page.getByRole('tab', { name: /Catalog/ }).click()
    const bad = page.locator('details.item', { has: page.locator('.item-name', { hasText: /^bad_region$/ }) })
    await expect(bad.getByTestId('param-header-badge')).toHaveText('excluded: invalid x-mcp-header')
    await expect(bad.getByRole('button', { name: 'Call' })).toBeDisabled()
    await bad.locator('summary').click()
    await expect(bad.getByTestId('param-header-warning')).toContainText('"My Region" is not an HTTP header name')
    await expect(bad.getByTestId('param-header-warning')).toContainText('Parallax does not call it')
    const good = page.locator('details.item', { has: page.locator('.item-name', { hasText: /^execute_sql$/ }) })
    await expect(good.getByTestId('param-header-badge')).toHaveCount(0)
    await expect(good.getByRole('button', { name: 'Call' })).toBeEnabled()
    await page.screenshot({ path: 'test-results/e2e-artifacts/param-headers-catalog.png', fullPage: true })
  })

  await test.step('a call of execute_sql carries Mcp-Param-Region, shown on its frame', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await page.getByLabel('Tool').selectOption('execute_sql')
    await page.getByLabel('Arguments (JSON)').fill(JSON.stringify({ region: 'eu-west1', query: 'SELECT 1' }))
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.getByText('ran with {"region":"eu-west1","query":"SELECT 1"}').first()).toBeVisible({ timeout: 20_000 })
    expect(server!.calls).toEqual([{ 'mcp-param-region': 'eu-west1' }])
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.locator('[role="option"][data-method="tools/call"][data-direction="out"]').first().click()
    const exchange = page.getByTestId('http-exchange')
    await exchange.locator('summary').click()
    await expect(exchange).toContainText('1 Mcp-Param header')
    await expect(exchange).toContainText('Mcp-Param-Region')
    await expect(exchange).toContainText('eu-west1')
    await page.screenshot({ path: 'test-results/e2e-artifacts/param-headers-frame.png', fullPage: true })
  })
})
