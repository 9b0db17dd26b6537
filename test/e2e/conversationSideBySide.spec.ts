import { expect, test } from './webHostProcess'
import { DEMO_BUY, openDemo } from './flows'

test('a two-turn A2A conversation and an MCP session, side by side by turn', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('the A2A demo agent: card, generation and interface', async () => {
    await openDemo(page, '(A2A)')
    await expect(page.getByTestId('generation')).toHaveText('A2A v1.0')
    await expect(page.getByTestId('agent-card')).toContainText('JSONRPC 1.0')
  })

  await test.step('two turns: the agent asks for a missing input, the answer continues the same task', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const message = page.getByLabel('Message')
    await message.fill('buy prod_mobile_run 2000')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="input-required"]')).toContainText('Which brand')
    await expect(page.getByTestId('thread')).toContainText('continues task')
    await message.fill('acmeoutdoor.example')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="completed"]')).toContainText('Created mb_0001')
    await expect(page.locator('[data-kind="artifact"]')).toContainText('media_buy')
  })

  await test.step('the task, with its whole history from GetTask', async () => {
    await page.getByRole('button', { name: 'Tasks…' }).click()
    await expect(page.getByTestId('tasks').locator('tr')).toHaveCount(1)
    await expect(page.getByTestId('tasks')).toContainText('completed')
    await page.getByRole('button', { name: 'History' }).click()
    await expect(page.getByTestId('task-history').locator('.msg, .status-msg')).toHaveCount(6)
    await page.getByRole('dialog', { name: 'Tasks' }).getByRole('button', { name: 'Close' }).click()
  })

  await test.step('the same agent over MCP: two tool calls as turns', async () => {
    await page.locator('[data-target="demo:tools"]').click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await page.getByLabel('Tool').selectOption('create_media_buy')
    const args = page.getByLabel('Arguments (JSON)')
    await args.fill(DEMO_BUY)
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toContainText('mb_0001')
    await page.getByLabel('Tool').selectOption('get_media_buy_delivery')
    await args.fill('{"media_buy_ids": ["mb_0001"]}')
    await page.getByRole('button', { name: 'Call' }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(2)
  })

  await test.step('side by side, aligned by turn', async () => {
    await page
      .getByRole('button', { name: /Side by side/ })
      .first()
      .click()
    const options = page.getByLabel('Left connection').locator('option')
    const labels = await options.allTextContents()
    await page.getByLabel('Left connection').selectOption({ label: labels.find((l) => l.includes('· MCP ·'))! })
    await page.getByLabel('Right connection').selectOption({ label: labels.find((l) => l.includes('· A2A ·'))! })
    const turns = page.locator('.sbs-row')
    await expect(turns).toHaveCount(2)
    await expect(turns.nth(0).locator('.sbs-cell').nth(0)).toContainText('create_media_buy')
    await expect(turns.nth(0).locator('.sbs-cell').nth(1)).toContainText('input-required')
    await expect(turns.nth(1).locator('.sbs-cell').nth(1)).toContainText('completed')
    await page.screenshot({ path: 'test-results/conversation-side-by-side.png' })
  })
})
