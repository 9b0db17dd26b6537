import { expect, test } from './webHostProcess'
import { startA2aSeller } from '../fixtures/adcp/a2aSeller'
import { addAndConnect } from './flows'

/** A small AdCP seller built with the MCP SDK (test/fixtures/servers/adcpSeller.ts) that answers formats the old way, as a user types its command. */
const LEGACY_SELLER = `${process.execPath} --import tsx test/fixtures/servers/adcpSeller.ts legacy`

test("an AdCP seller's answer that breaks AdCP's schema is a finding in Calls and in the conversation, with its schema path", async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await addAndConnect(page, { name: 'legacy seller', command: LEGACY_SELLER })
  await page.getByRole('tab', { name: /Handshake/ }).click()
  await expect(page.getByTestId('adcp-agent')).toHaveText(
    'an AdCP agent: it offers get_adcp_capabilities · calls and turns checked against AdCP 3.0.6',
  )
  await page.screenshot({ path: 'test-results/adcp-agent-handshake.png' })
  await page.getByRole('tab', { name: /Calls/ }).click()

  await test.step('Calls: the call of list_creative_formats says which rule of which schema its answer breaks', async () => {
    await page.getByLabel('Tool to call').selectOption('list_creative_formats')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    const findings = page.getByTestId('call-result').getByTestId('adcp-findings')
    await expect(findings).toContainText("AdCP 3.0.6 · list_creative_formats: one violation of AdCP's schemas")
    await expect(findings).toContainText('response /formats/0/format_id must be object')
    await expect(findings).toContainText('/schemas/3.0.6/core/format-id.json#/type')
    await page.screenshot({ path: 'test-results/adcp-finding-call.png', fullPage: true })
  })

  await test.step('a conformant task of the same seller has no violation', async () => {
    await page.getByLabel('Tool to call').selectOption('get_products')
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill('{"buying_mode": "brief", "brief": "sports"}')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(page.getByTestId('call-result').getByTestId('adcp-findings')).toContainText(
      "AdCP 3.0.6 · get_products: the request and the response match AdCP's schemas",
    )
  })

  await test.step('Conversation: the finding follows the turn it is about', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const timeline = page.getByTestId('timeline')
    await expect(timeline.getByTestId('adcp-findings')).toHaveCount(1)
    await expect(timeline.getByTestId('adcp-findings')).toContainText('response /formats/0/format_id must be object')
    await page.screenshot({ path: 'test-results/adcp-finding-conversation.png', fullPage: true })
  })
})

const SELLER = `${process.execPath} --import tsx test/fixtures/servers/adcpSeller.ts conformant`

test("a replay of an AdCP seller, MCP vs A2A, says how each turn ended in AdCP's task-status words", async ({ page, host }) => {
  const a2a = await startA2aSeller('conformant')
  try {
    await page.goto(host.url)
    await addAndConnect(page, { name: 'seller over A2A', a2aUrl: a2a.url })
    await expect(page.getByTestId('agent-card').getByTestId('adcp-agent')).toContainText('an AdCP agent:')
    await addAndConnect(page, { name: 'seller over MCP', command: SELLER })

    await test.step('record the formats listed and a buy refused over MCP', async () => {
      await page.getByRole('button', { name: '● Record' }).click()
      await page.getByRole('tab', { name: /Conversation/ }).click()
      for (const [tool, args] of [
        ['list_creative_formats', '{}'],
        ['create_media_buy', '{"brand": {"domain": "acme.example"}}'],
      ]) {
        await page.getByLabel('Tool').selectOption(tool)
        await page.getByLabel('Arguments (JSON)').fill(args)
        await page.getByRole('button', { name: 'Call' }).click()
      }
      await expect(page.locator('[data-kind="result"], [data-kind="error"]')).toHaveCount(2)
      await page.getByRole('button', { name: '■ Stop recording' }).click()
      await expect(page.getByRole('button', { name: '● Record' })).toBeVisible()
    })

    await test.step('replay it against the seller over MCP (A) and over A2A (B)', async () => {
      await page
        .getByRole('button', { name: /Replay/ })
        .first()
        .click()
      await page.locator('[data-recording]').filter({ hasNotText: 'media-buying' }).first().click()
      await page.getByLabel('Target A').selectOption({ label: 'seller over MCP' })
      await page.getByLabel('Target B').selectOption({ label: 'seller over A2A' })
      await page.getByRole('button', { name: 'Run all' }).click()
      await expect(page.getByTestId('parity-summary')).toContainText('2 of 2 turn(s) · done', { timeout: 20_000 })
      await expect(page.locator('[data-turn="1"]')).toHaveAttribute('data-status', 'same')
      await expect(page.locator('[data-turn="2"]')).toHaveAttribute('data-status', 'differs')
      const outcomes = page.locator('[data-turn="2"]').getByTestId('turn-outcome')
      await expect(outcomes).toHaveText(['AdCP failed · error', 'AdCP rejected'])
      await page.screenshot({ path: 'test-results/adcp-replay.png', fullPage: true })
    })
  } finally {
    await a2a.close()
  }
})
