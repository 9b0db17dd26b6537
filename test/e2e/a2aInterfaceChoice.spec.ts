import { startMediaSalesAgent } from '../../shared/demo/a2aAgent'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

test('the user chooses which of a card’s interfaces a target uses: HTTP+JSON, then gRPC (its own port allowed first), saved and reconnected over; a demo cannot', async ({
  page,
  host,
}) => {
  // The demo agent's card offers JSON-RPC and HTTP+JSON (v1.0 and v0.3) and gRPC v1.0 on a port of its own.
  const agent = await startMediaSalesAgent()
  try {
    await page.goto(host.url)
    const interfaces = page.getByTestId('interfaces')
    const chosen = interfaces.locator('tr[data-chosen="true"]')

    await test.step('a built-in demo is read-only: the card says so, and offers no choice', async () => {
      await page.locator('[data-target="demo:a2a"]').click()
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await expect(page.getByTestId('interface-read-only')).toContainText('A built-in demo cannot be changed')
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC')
      await expect(interfaces.getByRole('button')).toHaveCount(0)
    })

    await test.step('an agent of the user’s own: JSON-RPC by the card’s order, HTTP+JSON and gRPC to choose', async () => {
      await addAndConnect(page, { name: 'my agent', a2aUrl: agent.url })
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC')
      await expect(interfaces.getByRole('button')).toHaveText(['Use this one', 'Use this one'])
      await expect(interfaces.locator('tr[data-binding="GRPC"]').getByRole('button')).toHaveAccessibleName('Use GRPC 1.0')
      await expect(interfaces.locator('tr[data-binding="HTTP+JSON"]').first().getByRole('button')).toHaveAccessibleName('Use HTTP+JSON 1.0')
      await expect(interfaces.locator('tr[data-binding="HTTP+JSON"]').nth(1).getByRole('button')).toHaveCount(0) // v0.3: the same choice
      await expect(page.getByTestId('interface-read-only')).toHaveCount(0)
      await page.screenshot({ path: 'test-results/a2a-interfaces.png' })
    })

    await test.step('Use this one (HTTP+JSON): saved on the target, reconnected over it', async () => {
      await page.getByRole('button', { name: 'Use HTTP+JSON 1.0' }).click()
      await expect(page.locator('.toast')).toContainText('Reconnected')
      await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
      await expect(chosen).toHaveAttribute('data-binding', 'HTTP+JSON')
      await expect(page.getByTestId('agent-card')).toContainText('because this target prefers HTTP+JSON')
      await expect(page.getByTestId('interface-preference')).toContainText('This target uses HTTP+JSON')
      await page.screenshot({ path: 'test-results/a2a-interface-chosen.png' })
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      await expect(page.locator('#t-binding')).toHaveValue('HTTP+JSON')
      await page.getByRole('button', { name: 'Cancel' }).click()
    })

    await test.step('a turn goes over HTTP+JSON: its frames are REST exchanges', async () => {
      await page.getByRole('tab', { name: /Conversation/ }).click()
      await page.getByLabel('Message').fill('search sports video')
      await page.getByLabel('Message').press('Enter')
      await expect(page.locator('[data-kind="status"][data-state="completed"]')).toBeVisible({ timeout: 15_000 })
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page
        .locator('.rows [role="option"]')
        .filter({ hasText: /SendStreamingMessage|SendMessage/ })
        .first()
        .click()
      await expect(page.locator('.detail-head')).toContainText('· rest')
      await expect(page.getByTestId('http-exchange')).toContainText(/POST http:\/\/127\.0\.0\.1:\d+\/a2a\/rest\/message:(stream|send)/)
      await page.screenshot({ path: 'test-results/a2a-interface-rest-frames.png' })
    })

    await test.step('Use this one (gRPC): its own port is another origin, allowed first; then a turn is gRPC frames', async () => {
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await page.getByRole('button', { name: 'Use GRPC 1.0' }).click()
      await expect(page.getByTestId('approval')).toHaveAttribute('data-kind', 'origin')
      await expect(page.getByTestId('approval')).toContainText(/GRPC 127\.0\.0\.1:\d+/)
      await page.screenshot({ path: 'test-results/a2a-interface-grpc-approval.png' })
      await page.getByTestId('approve').click()
      await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
      await expect(chosen).toHaveAttribute('data-binding', 'GRPC')
      await expect(page.getByTestId('agent-card')).toContainText('because this target prefers GRPC')
      await page.getByRole('tab', { name: /Conversation/ }).click()
      await page.getByLabel('Message').fill('formats video')
      await page.getByLabel('Message').press('Enter')
      await expect(page.locator('[data-kind="status"][data-state="completed"]').last()).toBeVisible({ timeout: 15_000 })
      await page.getByRole('tab', { name: /Frames/ }).click()
      const rows = page.locator('.rows [role="option"]')
      await rows
        .filter({ hasText: /SendStreamingMessage|SendMessage/ })
        .filter({ hasText: 'request' })
        .last()
        .click()
      await expect(page.locator('.detail-head')).toContainText('· grpc')
      const call = page.getByTestId('grpc-call')
      await expect(call).toContainText(/gRPC \/lf\.a2a\.v1\.A2AService\/(SendStreamingMessage|SendMessage) on 127\.0\.0\.1:\d+/)
      await call.locator('summary').click()
      await expect(call).toContainText('a2a-version')
      await rows.filter({ hasText: 'trailers' }).last().click()
      await expect(page.getByTestId('grpc-call')).toContainText('→ 0 OK')
      await page.screenshot({ path: 'test-results/a2a-interface-grpc-frames.png' })
    })

    await test.step('Let Parallax choose: back to the card’s order', async () => {
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await page.getByRole('button', { name: 'Let Parallax choose' }).click()
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC', { timeout: 20_000 })
      await expect(page.getByTestId('interface-preference')).toHaveCount(0)
    })
  } finally {
    await agent.close()
  }
})
