import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

/** A server built with the MCP SDK that refuses with JSON-RPC errors (test/fixtures/servers/refusals.ts), as a user types its command. */
const REFUSALS = `${process.execPath} --import tsx test/fixtures/servers/refusals.ts`

test('a JSON-RPC error says its code once: no "MCP error -1: MCP error -1:" in Calls', async ({ page, host }) => {
  await page.goto(host.url)
  await addAndConnect(page, { name: 'refusals', command: REFUSALS })
  await page.getByRole('tab', { name: /Calls/ }).click()
  const surface = page.getByTestId('call-surface')

  await test.step('a tool call refused with error -1', async () => {
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    const failed = page.getByTestId('call-result').locator('.verdict.bad')
    await expect(failed).toHaveText('Call failed: MCP error -1: the archive is offline')
    await page.screenshot({ path: 'test-results/json-rpc-error-call.png' })
  })

  await test.step('a resource read refused with error -32002: its code, then the server’s words', async () => {
    await surface.getByRole('tab', { name: /Resources/ }).click()
    await surface.getByRole('button', { name: 'Read', exact: true }).click()
    await expect(page.getByTestId('error-answer')).toHaveText('JSON-RPC error -32002: no such resource: archive://2019')
  })

  await test.step('a prompt refused with error -32602', async () => {
    await surface.getByRole('tab', { name: /Prompts/ }).click()
    await surface.getByRole('button', { name: 'Get', exact: true }).click()
    await expect(page.getByTestId('error-answer')).toHaveText('JSON-RPC error -32602: unknown prompt: summary')
  })

  await test.step('nowhere on the page is a code said twice', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.getByText('MCP error -1: the archive is offline').first()).toBeVisible()
    expect(await page.locator('body').innerText()).not.toMatch(/MCP error (-?\d+): MCP error \1:/)
  })
})
