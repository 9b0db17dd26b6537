import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { fixtureServer, mcpHost, serverCommand, tapped } from '../fixtures/tapHosts'
import { expect, test } from './webHostProcess'

// Hold in flight from the app: the user turns breakpoints on for an observed session, and the app tells the tap
// (its control.jsonl); while the tap holds, a banner says the host waits; each held message is released, edited
// (invalid JSON refused) and released, or dropped, with a countdown to its timeout. A real host (the MCP SDK's
// client) runs a real server through a real `parallax tap`, with the web host's data folder.

const hosts: { close(): Promise<void> }[] = []
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close().catch(() => {})))
})

test('hold in flight: off by default, turned on with a filter, a loud banner, held messages released, edited or dropped', async ({
  page,
  host,
}) => {
  test.setTimeout(60_000)
  const { host: mcp } = await mcpHost(tapped(host.dataDir, serverCommand(fixtureServer('protocolFieldTool')), ['--name', 'held']))
  hosts.push(mcp)
  await mcp.listTools()
  const call = (brief: string) =>
    mcp.request({ method: 'tools/call', params: { name: 'get_products', arguments: { brief } } }, CallToolResultSchema, { timeout: 50_000 })
  await page.goto(host.url)
  await page.locator('[data-observed]').click()

  const panel = page.getByTestId('hold-panel')
  await test.step('off by default: no banner, the panel says every message goes on', async () => {
    await expect(panel).toContainText('off: every message goes on as it comes')
    await expect(page.getByTestId('hold-banner')).toHaveCount(0)
  })

  await test.step('turned on with a filter: the tap is told, and once it says so, the banner', async () => {
    await panel.getByRole('button', { name: /Hold in flight/ }).click()
    await panel.getByLabel('Tools').fill('get_products')
    await panel.getByLabel('Release after').fill('45')
    await panel.getByLabel('Hold matching messages').check()
    await expect(page.getByTestId('hold-banner')).toContainText('The tap is holding messages: the host waits.')
    await expect(page.getByTestId('hold-banner')).toContainText("holding tools/call of get_products · the host's · released after 45 s")
  })

  let hats: Promise<string> | undefined
  await test.step('a held message: its JSON, a countdown; Edit & release refuses what is not JSON, then releases the edit', async () => {
    const shoes = call('shoes')
    await expect(panel.locator('[data-hold]')).toHaveCount(1)
    hats = call('hats').then(
      () => 'answered',
      () => 'never answered',
    )
    const held = panel.locator('[data-hold]')
    await expect(held).toHaveCount(2)
    await expect(page.getByTestId('hold-banner')).toContainText('2 held now')
    const first = panel.locator('[data-hold="1"]')
    await expect(first).toContainText('"shoes"')
    await expect(first.getByTestId('hold-countdown')).toHaveText(/goes on as it was in (4[0-5]|3\d) s/)
    await page.screenshot({ path: 'test-results/tap-hold.png' })

    await first.getByRole('button', { name: 'Edit & release' }).click()
    const editor = first.getByLabel('The message to release (JSON)')
    const shown = JSON.parse(await editor.inputValue()) as { params: { arguments: { brief: string } } }
    await editor.fill('{"jsonrpc": "2.0", "id": 2, ')
    await expect(first).toContainText('Not JSON')
    await expect(first.getByRole('button', { name: 'Release edited' })).toBeDisabled()
    shown.params.arguments.brief = 'boots'
    await editor.fill(JSON.stringify(shown))
    await page.screenshot({ path: 'test-results/tap-hold-edit.png' })
    await first.getByRole('button', { name: 'Release edited' }).click()
    // The server got the edit: it echoes the arguments it was called with.
    expect((await shoes).structuredContent).toMatchObject({ echo: { brief: 'boots' } })
    await expect(held).toHaveCount(1)
  })

  await test.step('Drop', async () => {
    await panel.locator('[data-hold="2"]').getByRole('button', { name: 'Drop' }).click()
    await expect(panel.locator('[data-hold]')).toHaveCount(0)
    expect(await Promise.race([hats, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))])).toBe('still waiting')
  })

  await test.step('turned off: the tap is told, the banner goes once it says so', async () => {
    await panel.getByLabel('Hold matching messages').uncheck()
    await expect(page.getByTestId('hold-banner')).toHaveCount(0)
  })
})
