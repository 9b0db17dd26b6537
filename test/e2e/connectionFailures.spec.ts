import { expect, test } from './webHostProcess'

// A connection that fails before any answer says why and where, in the page as in the CLI: here port 9,
// which fetch refuses before connecting (a "bad port"), for an MCP server over HTTP and an A2A agent.
test('a port fetch refuses before connecting: the page names the cause and host:port, not "fetch failed"', async ({ page, host }) => {
  test.setTimeout(60_000)
  await page.goto(host.url)
  for (const [kind, url, name] of [
    ['MCP over HTTP', 'http://127.0.0.1:9/mcp', 'bad port mcp'],
    ['A2A agent', 'http://127.0.0.1:9', 'bad port agent'],
  ] as const) {
    await test.step(`${kind} at ${url}`, async () => {
      await page.getByRole('button', { name: '+ Add server' }).click()
      await page.locator('#t-name').fill(name)
      await page.getByRole('button', { name: kind }).click()
      await page.locator('#t-url').fill(url)
      await page.getByRole('button', { name: 'Save and connect' }).click()
      await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
      const reason = page.locator('.reason.bad')
      await expect(reason).toContainText('refused by fetch before connecting: port 9 is a "bad port"')
      await expect(reason).toContainText('at 127.0.0.1:9')
      await expect(reason).not.toHaveText(/fetch failed$/)
      await page.screenshot({ path: `test-results/connection-failure-${name.replace(/ /g, '-')}.png` })
    })
  }
})
