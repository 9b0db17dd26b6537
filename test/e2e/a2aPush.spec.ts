import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

test('push notifications: a webhook on Parallax’s receiver for a task, and each push the agent sends arrives as a frame and in the conversation', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  const message = page.getByLabel('Message')
  const tasks = page.getByRole('dialog', { name: 'Tasks' })

  await test.step('the demo agent asks for a missing input: its task waits', async () => {
    await openDemo(page, '(A2A)')
    await expect(page.getByTestId('agent-card').locator('.cap.on')).toContainText(['pushNotifications'])
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await message.fill('buy prod_mobile_run 2000')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="input-required"]')).toContainText('Which brand')
  })

  await test.step('Tasks → Push… → Add webhook: the agent is given a webhook on 127.0.0.1', async () => {
    await page.getByRole('button', { name: 'Tasks…' }).click()
    await tasks.getByRole('button', { name: 'Push…' }).click()
    await expect(tasks.getByTestId('push-configs')).toContainText('No push-notification config for this task.')
    await tasks.getByRole('button', { name: 'Add webhook' }).click()
    const config = tasks.getByTestId('push-config')
    await expect(config).toHaveCount(1)
    await expect(config).toContainText(/http:\/\/127\.0\.0\.1:\d+\/a2a\/push\//)
    await expect(config.getByTestId('push-count')).toHaveText('0 pushes')
    await page.screenshot({ path: 'test-results/a2a-push-config.png' })
    await tasks.getByRole('button', { name: 'Close' }).click()
  })

  await test.step('the answer moves the task on: the agent pushes each change, and each push is in the conversation', async () => {
    await message.fill('acmeoutdoor.example')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="completed"]')).toContainText('Created mb_0001')
    const pushed = page.locator('[data-kind="push"][data-state="completed"]')
    await expect(pushed).toBeVisible({ timeout: 10_000 })
    await expect(pushed).toContainText(/push.*completed.*frame #\d+/)
    await page.screenshot({ path: 'test-results/a2a-push-conversation.png' })
  })

  await test.step('the config counts the pushes that arrived; no finding; the finished task is offered no new webhook', async () => {
    await page.getByRole('button', { name: 'Tasks…' }).click()
    await tasks.getByRole('button', { name: 'Push…' }).click()
    await expect(tasks.getByTestId('push-count')).toHaveText(/^[1-9]\d* push(es)?$/)
    await expect(tasks.getByTestId('push-finding')).toHaveCount(0)
    await expect(tasks.getByTestId('push-finished')).toHaveText(
      'The task is completed: it will change no more, so a webhook would receive nothing.',
    )
    await expect(tasks.getByRole('button', { name: 'Add webhook' })).toHaveCount(0)
    await expect(tasks.getByRole('button', { name: 'Get' })).toBeVisible() // what it had stays readable
    await page.screenshot({ path: 'test-results/a2a-push-finished.png' })
    await tasks.getByRole('button', { name: 'Close' }).click()
  })

  await test.step('a task canceled while it waited: no webhook offered either', async () => {
    await message.fill('buy prod_mobile_run 500')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="input-required"]').last()).toContainText('Which brand')
    await page.getByRole('button', { name: 'Tasks…' }).click()
    const waiting = tasks.getByRole('row').filter({ has: page.locator('.state-chip.input-required') })
    await waiting.getByRole('button', { name: 'Push…' }).click()
    await expect(tasks.getByRole('button', { name: 'Add webhook' })).toBeVisible()
    await waiting.getByRole('button', { name: 'Cancel' }).click()
    const canceled = tasks.getByRole('row').filter({ has: page.locator('.state-chip.canceled') })
    await expect(canceled).toHaveCount(1) // its push configs stay open, now for a finished task
    await expect(tasks.getByTestId('push-finished')).toContainText('The task is canceled')
    await expect(tasks.getByRole('button', { name: 'Add webhook' })).toHaveCount(0)
    await tasks.getByRole('button', { name: 'Close' }).click()
  })

  await test.step('each push is a frame with its HTTP exchange: what the agent POSTed, the token redacted, what Parallax answered', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.getByLabel('Kind').selectOption('notification')
    await page.locator('.rows [role="option"][data-method="PushNotification"]').last().click()
    const exchange = page.getByTestId('http-exchange')
    await expect(exchange).toContainText(/POST http:\/\/127\.0\.0\.1:\d+\/a2a\/push\/\S+ → 200/)
    await exchange.locator('summary').click()
    await expect(exchange).toContainText('x-a2a-notification-token')
    await expect(exchange).toContainText('[redacted]')
    await page.screenshot({ path: 'test-results/a2a-push-frames.png' })
  })
})
