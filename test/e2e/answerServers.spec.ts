import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './webHostProcess'

// Answer what servers ask, by hand, in the UI: @modelcontextprotocol/server-everything asks for a model's
// reply (sampling), for a form (elicitation) and for the client's roots. Its tools are always called with
// explicit arguments (one tool's default is an internet URL).
const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

async function call(page: Page, tool: string, args: Record<string, unknown>): Promise<void> {
  await page.getByRole('tab', { name: /Conversation/ }).click()
  await page.getByLabel('Tool').selectOption(tool)
  await page.getByLabel('Arguments (JSON)').fill(JSON.stringify(args))
  await page.getByRole('button', { name: 'Call' }).click()
}

test('a sampling request answered by hand, an elicitation form accepted with its defaults, roots answered', async ({ page, host }) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  const panel = page.getByTestId('server-request')

  await test.step('add server-everything with a root, under the default profile, and connect', async () => {
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.locator('#t-name').fill('everything')
    await page.locator('#t-cmd').fill(`${process.execPath} ${entry} stdio`)
    await expect(page.locator('#t-profile')).toHaveValue('default')
    await page.locator('#t-roots').fill('file:///work/project my project')
    await page.screenshot({ path: 'test-results/answer-servers-editor.png' })
    await page.getByRole('button', { name: 'Save and connect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 30_000 })
    await expect(page.getByTestId('handshake-profile')).toHaveText('default')
    await expect(page.locator('.cap', { hasText: /^✓ sampling$/ })).toBeVisible()
  })

  await test.step('the server asks for a model’s reply: its messages and system prompt show; the reply written by hand goes back', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.getByLabel('Tool').locator('option', { hasText: /^trigger-sampling-request$/ })).toHaveCount(1, { timeout: 20_000 })
    await call(page, 'trigger-sampling-request', { prompt: 'Write a haiku about ports', maxTokens: 30 })
    await expect(panel).toContainText('The server asks for a model’s reply')
    await expect(panel.getByTestId('sampling-messages')).toContainText('Write a haiku about ports')
    await expect(panel).toContainText('You are a helpful test server.')
    await expect(panel).toContainText('max tokens 30')
    await expect(panel.getByTestId('server-request-clock')).toContainText('waiting')
    await page.getByLabel('Reply').fill('Ports open at dusk / frames drift across the wire / the server listens')
    await page.getByLabel('Model').fill('by-hand-1')
    await page.screenshot({ path: 'test-results/answer-servers-sampling.png' })
    await panel.getByRole('button', { name: 'Send reply' }).click()
    await expect(panel).toHaveCount(0)
    await expect(page.locator('[data-kind="result"]').last()).toContainText('frames drift across the wire', { timeout: 20_000 })
    await expect(page.locator('[data-kind="ask"]').filter({ hasText: 'Write a haiku about ports' })).toContainText('sampling/createMessage')
    await expect(page.locator('[data-kind="answer"]').filter({ hasText: 'by-hand-1' })).toHaveCount(1)
  })

  await test.step('the server asks for a form: its defaults are filled in; accepting sends them with what was typed', async () => {
    await call(page, 'trigger-elicitation-request', {})
    await expect(panel).toContainText('Please provide inputs for the following fields')
    await expect(page.locator('#elicit-firstLine')).toHaveValue('It was a dark and stormy night.')
    await expect(page.locator('#elicit-integer')).toHaveValue('42')
    await expect(page.locator('#elicit-untitledSingleSelectEnum')).toHaveValue('Monica')
    await page.locator('#elicit-name').fill('Ada Lovelace')
    await page.screenshot({ path: 'test-results/answer-servers-elicitation.png' })
    await panel.getByRole('button', { name: 'Accept' }).click()
    await expect(panel).toHaveCount(0)
    const result = page.locator('[data-kind="result"]').last()
    await expect(result).toContainText('Name: Ada Lovelace', { timeout: 20_000 })
    await expect(result).toContainText('Favorite Integer: 42')
  })

  await test.step('roots: the target’s root is what the server got', async () => {
    await call(page, 'get-roots-list', {})
    await expect(page.locator('[data-kind="result"]').last()).toContainText('file:///work/project', { timeout: 20_000 })
  })

  await test.step('a URL elicitation shows its URL and opens nothing by itself', async () => {
    await call(page, 'trigger-url-elicitation', {
      url: 'https://example.invalid/consent',
      message: 'Open this to continue',
      errorPath: false,
    })
    await expect(panel.getByTestId('elicit-url')).toHaveText('https://example.invalid/consent')
    expect(page.context().pages()).toHaveLength(1)
    await page.screenshot({ path: 'test-results/answer-servers-url.png' })
    await panel.getByRole('button', { name: 'Decline' }).click()
    await expect(page.locator('[data-kind="result"]').last()).toContainText('decline', { timeout: 20_000 })
  })
})
