import { expect, test } from './webHostProcess'

test('A2A frames carry their HTTP exchange; probes are marked and hidden with one toggle; a call names its skill; pairs jump', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await page.locator('[data-target="demo:a2a"]').click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })

  await test.step('a skill call, and a probe or two', async () => {
    await page.getByRole('button', { name: 'Probe now' }).click()
    await page.getByRole('tab', { name: /Calls/ }).click()
    await page.getByLabel('Tool to call').selectOption('list_creative_formats')
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill('{"name_search": "audio"}')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(page.getByTestId('call-result')).toBeVisible({ timeout: 15_000 })
  })

  await page.getByRole('tab', { name: /Frames/ }).click()
  const rows = page.locator('.rows [role="option"]')

  await test.step('the card fetch shows its HTTP exchange: method, URL, status and headers', async () => {
    await rows.filter({ hasText: 'agent-card' }).first().click()
    const exchange = page.getByTestId('http-exchange')
    await expect(exchange).toContainText(/GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json/)
    await expect(exchange).toContainText('request headers')
    await rows.filter({ hasText: 'agent-card' }).nth(1).click()
    await expect(exchange).toContainText('→ 200')
    await exchange.locator('summary').click()
    await expect(exchange).toContainText(/etag/i)
  })

  await test.step('probes are marked, and one toggle hides them', async () => {
    const probes = page.locator('.rows [data-probe="true"]')
    await expect(probes.first()).toBeVisible()
    await expect(probes.filter({ hasText: /→|304|agent-card/ }).first()).toContainText('probe')
    await page.getByLabel('Hide keepalive probes').check()
    await expect(probes).toHaveCount(0)
    await page.screenshot({ path: 'test-results/frames-a2a.png' })
  })

  await test.step('the call names its skill; request and answer jump to each other; filters exclude with -', async () => {
    const call = rows.filter({ hasText: 'list_creative_formats' })
    await expect(call.first()).toContainText('SendMessage')
    await call.first().click()
    await page.getByTestId('frame-pair').click()
    await expect(page.locator('.detail-head')).toContainText('list_creative_formats')
    await expect(page.getByTestId('frame-pair')).toContainText('← request')
    await expect(page.locator('.rows .row.paired')).toHaveCount(1)
    await page.getByLabel('Filter frames by method').fill('-agent-card')
    await expect(rows.filter({ hasText: 'agent-card' })).toHaveCount(0)
    await expect(call.first()).toBeVisible()
  })
})
