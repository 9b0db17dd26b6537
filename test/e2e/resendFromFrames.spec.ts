import { expect, test } from './webHostProcess'

test('a request in Frames is edited, checked against the MCP schema, confirmed and sent again, linked to the original', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000) // a cold stdio start on a busy machine
  await page.goto(host.url)
  await page.locator('[data-target="demo:tools"]').click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 60_000 })

  await test.step('a tool call to resend', async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    await page.getByLabel('Tool to call').selectOption('get_products')
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill('{"buying_mode": "brief", "brief": "sports fans"}')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(page.getByTestId('call-result')).toBeVisible({ timeout: 15_000 })
  })

  await page.getByRole('tab', { name: /Frames/ }).click()
  const rows = page.locator('.rows [role="option"]')
  const calls = rows.filter({ hasText: 'tools/call' }).filter({ has: page.locator('.kind.request') })
  await calls.first().click()
  const resend = page.getByTestId('resend')
  const editor = page.getByLabel('Params to send (JSON)')

  await test.step('an edit the schema refuses says where and why, and cannot be sent', async () => {
    await resend.getByRole('button', { name: 'Edit & resend' }).click()
    await expect(editor).toHaveValue(/"brief": "sports fans"/)
    await editor.fill('{"name": "get_products", "arguments": "podcast listeners"}')
    await expect(page.getByRole('alert')).toContainText('arguments')
    await expect(resend.getByRole('button', { name: 'Send edited' })).toBeDisabled()
    await editor.fill('{"name": "get_products", ')
    await expect(page.getByRole('alert')).toContainText('Not sendable')
    await page.screenshot({ path: 'test-results/resend-refused.png' })
  })

  await test.step('a valid edit fits the schema; a tool call asks before it is sent', async () => {
    await editor.fill(
      '{"name": "get_products", "arguments": {"buying_mode": "brief", "brief": "podcast listeners", "filters": {"channels": ["podcast"]}}}',
    )
    await expect(resend).toContainText('✓ fits the MCP schema for tools/call')
    await resend.getByRole('button', { name: 'Send edited' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Send tools/call again?' })
    await expect(dialog).toContainText('with your edited params')
    await expect(dialog).toContainText('hooks')
    await page.screenshot({ path: 'test-results/resend-confirm.png' })
    await dialog.getByRole('button', { name: 'Send' }).click()
  })

  await test.step('the new exchange is a frame pair linked to the original, and selected', async () => {
    await expect(page.getByTestId('frame-resend-of')).toBeVisible({ timeout: 15_000 })
    await expect(page.locator('.detail-body')).toContainText('podcast listeners')
    await expect(calls).toHaveCount(2)
    await expect(calls.nth(1)).toContainText('resent')
    await page.getByTestId('frame-pair').click()
    await expect(page.locator('.detail-head')).toContainText('tools/call')
    await expect(page.locator('.rows .row.selected')).toContainText('resent')
    await page.screenshot({ path: 'test-results/resend-sent.png' })
    await page.getByTestId('frame-pair').click()
    await page.getByTestId('frame-resend-of').click()
    await expect(page.locator('.detail-body')).toContainText('sports fans')
  })

  await test.step('a read is resent as it was, without asking', async () => {
    await rows
      .filter({ hasText: 'tools/list' })
      .filter({ has: page.locator('.kind.request') })
      .first()
      .click()
    await resend.getByRole('button', { name: '↻ Resend' }).click()
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    await expect(page.getByTestId('frame-resend-of')).toBeVisible({ timeout: 15_000 })
    await expect(page.locator('.detail-head')).toContainText('tools/list')
  })
})
