import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

test('the prompt-only demo server: tools/list is skipped with its reason and keepalive uses ping', async ({ page, host }) => {
  await test.step('open the app on the welcome screen', async () => {
    await page.goto(host.url)
    await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
    // The token leaves the address bar once the page has it.
    expect(page.url()).not.toContain('token=')
  })

  await test.step('open the demo prompt library', async () => {
    await openDemo(page, 'Demo prompt library')
    await expect(page.getByTestId('negotiated-version')).toHaveText(/\d{4}-\d{2}-\d{2}/)
  })

  await test.step('discovery skipped tools/list and says why', async () => {
    await page.getByRole('tab', { name: /Discovery/ }).click()
    const tools = page.locator('tr[data-method="tools/list"]')
    await expect(tools).toHaveAttribute('data-status', 'skipped')
    await expect(tools).toContainText('server did not advertise the "tools" capability')
    await expect(page.locator('tr[data-method="prompts/list"]')).toHaveAttribute('data-status', 'called')
  })

  await test.step('set a short keepalive interval and see ping probes succeed', async () => {
    await page.getByRole('tab', { name: /Keepalive/ }).click()
    await page.getByLabel('New interval in seconds').fill('0.3')
    await page.getByRole('button', { name: 'Set' }).click()
    await expect(page.locator('[data-testid="probes"] tbody tr')).not.toHaveCount(0, { timeout: 10_000 })
    await expect(page.getByTestId('probe-kind')).toHaveText('ping')
    await expect(page.getByTestId('health')).toHaveText('healthy')
    await expect.poll(() => page.locator('[data-testid="probes"] tbody tr').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    await page.screenshot({ path: 'test-results/prompt-only-keepalive.png' })
  })

  await test.step('the frame log never carried a tools/list', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.locator('.row[data-method="ping"]').first()).toBeVisible()
    await expect(page.locator('.row[data-method="tools/list"]')).toHaveCount(0)
    await page.getByLabel('Filter frames by method').fill('prompts/list')
    await expect(page.getByTestId('frame-count')).toHaveText(/^2 of \d+ frames$/)
    await page.locator('.row[data-method="prompts/list"][data-direction="in"]').click()
    await expect(page.locator('.detail-body')).toContainText('media_brief')
    await page.screenshot({ path: 'test-results/prompt-only-frames.png' })
  })
})
