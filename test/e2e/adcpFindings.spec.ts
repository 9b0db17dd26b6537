import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

/** A small AdCP seller built with the MCP SDK (test/fixtures/servers/adcpSeller.ts) that answers formats the old way, as a user types its command. */
const LEGACY_SELLER = `${process.execPath} --import tsx test/fixtures/servers/adcpSeller.ts legacy`

test("an AdCP seller's answer that breaks AdCP's schema is a finding in Calls and in the conversation, with its schema path", async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await addAndConnect(page, { name: 'legacy seller', command: LEGACY_SELLER })
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
