import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Page } from '@playwright/test'
import { openUiClient } from '../../web/client'
import { expect, test, type RunningWebHost } from './webHostProcess'
import { openDemo } from './flows'

// @modelcontextprotocol/server-everything, from the UI. Its tools are called only with arguments of our own,
// never with their schema defaults (one of them fetches an internet URL): every default the form fills is
// replaced before a call.
const require = createRequire(import.meta.url)
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

/** Saves server-everything as the user's own target (approved, as the editor does) and opens its page, connected. */
async function openEverything(page: Page, host: RunningWebHost): Promise<void> {
  const client = await openUiClient(host)
  const saved = await client.invoke('targets.save', {
    name: 'server-everything',
    spec: { kind: 'mcp-stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    approve: true,
  })
  await client.close()
  await page.goto(host.url)
  await page.locator(`[data-target="${saved.id}"]`).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
}

/** A Catalog entry's action (Call, Get, Read…), which opens the call surface on it. */
async function actOn(page: Page, section: string, name: string, action: string): Promise<void> {
  await page.getByRole('tab', { name: /Catalog/ }).click()
  const entry = page.locator('details.item', { has: page.locator('.item-name', { hasText: new RegExp(`^${escape(name)}$`) }) })
  await entry.getByRole('button', { name: action, exact: true }).click()
  await expect(page.getByRole('tab', { name: /Calls/ })).toHaveAttribute('aria-selected', 'true')
  void section
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

test('server-everything: an image result, a long operation with progress and Cancel, a prompt with completion, a template read', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await openEverything(page, host)

  await test.step('get-tiny-image, from its Catalog entry: the image shows as an image', async () => {
    await actOn(page, 'Tools', 'get-tiny-image', 'Call')
    await expect(page.getByLabel('Tool to call')).toHaveValue('get-tiny-image')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    const image = page.getByTestId('response').locator('.content-image img')
    await expect(image).toBeVisible()
    await expect(image).toHaveAttribute('src', /^data:image\/png;base64,iVBOR/)
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    await expect(page.getByTestId('response')).toContainText("Here's the image you requested:")
    await page.screenshot({ path: 'test-results/use-image-result.png' })
  })

  await test.step('a long operation: its progress as a bar, and Cancel sends notifications/cancelled', async () => {
    await page.getByLabel('Tool to call').selectOption('trigger-long-running-operation')
    // The form fills the schema's defaults; these are ours.
    await expect(page.locator('#arg-duration')).toHaveValue('10')
    await page.locator('#arg-duration').fill('30')
    await page.locator('#arg-steps').fill('30')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    const flying = page.getByTestId('in-flight')
    await expect(flying).toContainText('trigger-long-running-operation')
    await expect(flying.getByTestId('progress')).toContainText(/[1-9]\d* of 30/, { timeout: 10_000 })
    await expect(flying.getByTestId('in-flight-deadline')).toContainText(
      /unless the server answers or reports progress: each report gives it 30 s more/,
    )
    await page.screenshot({ path: 'test-results/use-progress.png' })
    await flying.getByRole('button', { name: 'Cancel' }).click()
    await expect(flying).toHaveCount(0)
    await expect(page.getByTestId('call-result')).toContainText('Call failed: no answer: cancelled by the user')
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.locator('.row[data-method="notifications/cancelled"][data-direction="out"]')).toHaveCount(1)
    await page.getByRole('tab', { name: /Calls/ }).click()
    // What was typed for the tool is still there.
    await expect(page.locator('#arg-duration')).toHaveValue('30')
  })

  await test.step('a prompt: its arguments completed by the server, its messages as a conversation', async () => {
    await actOn(page, 'Prompts', 'completable-prompt', 'Get')
    await expect(page.getByLabel('Prompt to get')).toHaveValue('completable-prompt')
    await page.locator('#arg-department').fill('E')
    await page.getByTestId('completions-arg-department').getByRole('button', { name: 'Engineering' }).click()
    await expect(page.locator('#arg-department')).toHaveValue('Engineering')
    await page.locator('#arg-name').focus()
    // The name's suggestions depend on the department chosen (sent as context).
    const names = page.getByTestId('completions-arg-name')
    await expect(names.getByRole('button')).toHaveText(['Alice', 'Bob', 'Charlie'])
    await names.getByRole('button', { name: 'Bob' }).click()
    await page.getByRole('button', { name: 'Get', exact: true }).click()
    const messages = page.getByTestId('prompt-messages')
    await expect(messages).toContainText('Please promote Bob to the head of the Engineering team.')
    await page.screenshot({ path: 'test-results/use-prompt.png' })
  })

  await test.step('a resource template: its parameter completed, the resource it makes read', async () => {
    await actOn(page, 'Resource templates', 'demo://resource/dynamic/text/{resourceId}', 'Read…')
    await page.locator('#param-resourceId').fill('7')
    await expect(page.getByTestId('completions-param-resourceId')).toContainText('the server suggests what is typed')
    await expect(page.getByTestId('expanded-uri')).toHaveText('demo://resource/dynamic/text/7')
    await page.getByRole('button', { name: 'Read', exact: true }).click()
    const content = page.getByTestId('resource-content')
    await expect(content).toContainText('Resource 7: This is a plaintext resource')
    await expect(content).toHaveAttribute('data-mime', 'text/plain')
    await page.screenshot({ path: 'test-results/use-template.png' })
  })

  await test.step('the conversation has each exchange, the image and the prompt readable there too', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const timeline = page.getByTestId('timeline')
    await expect(timeline.locator('.msg[data-kind="request"]').first()).toBeVisible()
    await expect(timeline).toContainText('result · resources/read')
    await page.screenshot({ path: 'test-results/use-conversation.png' })
  })
})

test('the demo prompt library and inventory are no dead ends: get a prompt, read resources and a template', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('get media_brief: the required argument marked, the messages shown', async () => {
    await openDemo(page, 'Demo prompt library')
    await actOn(page, 'Prompts', 'media_brief', 'Get')
    await expect(page.locator('label[for="arg-product"] .required-mark')).toBeVisible()
    await expect(page.locator('label[for="arg-audience"] .required-mark')).toHaveCount(0)
    await page.locator('#arg-product').fill('the Aurora phone')
    await page.getByRole('button', { name: 'Get', exact: true }).click()
    await expect(page.getByTestId('prompt-messages')).toContainText('Write a one-page media brief for the launch of the Aurora phone.')
  })

  await test.step('read the formats (JSON, as a tree) and one product through its template', async () => {
    await page.locator('[data-target="demo:resources"]').click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
    await actOn(page, 'Resources', 'media://formats', 'Read')
    await page.getByRole('button', { name: 'Read', exact: true }).click()
    const content = page.getByTestId('resource-content')
    await expect(content).toHaveAttribute('data-mime', 'application/json')
    await expect(content.locator('.json')).toContainText('"format_id"')
    await actOn(page, 'Resource templates', 'media://products/{product_id}', 'Read…')
    await page.locator('#param-product_id').fill('prod_mobile_run')
    await page.getByRole('button', { name: 'Read', exact: true }).click()
    await expect(page.getByTestId('resource-content')).toContainText('"prod_mobile_run"')
    await page.screenshot({ path: 'test-results/use-demo-template.png' })
  })

  await test.step('any request: progress asked where a person waits on the server, and wherever the user ticks it', async () => {
    await page.getByRole('tab', { name: 'Any request' }).click()
    const method = page.getByLabel('Method')
    const ask = page.getByRole('checkbox', { name: 'ask for progress' })
    await method.fill('resources/read')
    await expect(ask).toBeChecked()
    await method.fill('ping')
    await expect(ask).not.toBeChecked()
    await ask.check()
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await page.screenshot({ path: 'test-results/use-any-request-progress.png' })
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.getByLabel('Hide keepalive probes').check()
    await page.getByLabel('Filter frames by method').fill('ping')
    await page.locator('[aria-label="Frames"] .row').first().click()
    await expect(page.getByRole('complementary', { name: 'Frame detail' })).toContainText('progressToken')
  })
})
