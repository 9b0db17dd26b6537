import { startModernHttpServer } from '../fixtures/modernServers'
import { drifted } from '../fixtures/serverCards'
import { expectHealthy } from './flows'
import { expect, test } from './webHostProcess'

test('inspect before connect: a server card read, its endpoint added as a target, then the server diffed against it', async ({
  page,
  host,
}) => {
  const server = await startModernHttpServer('stateless', { card: drifted })
  const base = server.url.replace(/\/mcp$/, '')
  try {
    await page.goto(host.url)
    await test.step('paste the base URL: the card it serves at its well-known path, what it claims', async () => {
      await page.getByRole('button', { name: '+ Add server' }).click()
      await page.getByRole('button', { name: 'MCP over HTTP' }).click()
      await page.locator('#t-card').fill(base)
      await page.getByRole('button', { name: 'Read card' }).click()
      const preview = page.getByTestId('card-preview')
      await expect(preview).toContainText(`${base}/.well-known/mcp/server-card`)
      await expect(preview).toContainText('io.github.parallax/fixture-modern 2.3.0')
      await expect(preview).toContainText('echo, search')
      await expect(preview).toContainText(`streamable-http ${server.url}`)
      await expect(preview).toContainText('SEP-2127, a draft')
      await page.screenshot({ path: 'test-results/e2e-artifacts/server-card-preview.png', fullPage: true })
    })
    await test.step('its endpoint becomes the target', async () => {
      await page.getByRole('button', { name: 'Use its endpoint' }).click()
      await expect(page.locator('#t-url')).toHaveValue(server.url)
      await expect(page.locator('#t-name')).toHaveValue('Fixture')
      await page.getByRole('button', { name: 'Save and connect' }).click()
      await expectHealthy(page)
    })
    await test.step('connected: the Handshake shows where the server differs from its card', async () => {
      await page.getByRole('tab', { name: /Handshake/ }).click()
      const drift = page.getByTestId('card-drift')
      await expect(drift.getByLabel('Server card URL')).toHaveValue(`${base}/.well-known/mcp/server-card`)
      await drift.getByRole('button', { name: 'Check against the card' }).click()
      await expect(page.getByTestId('card-drift-verdict')).toHaveText('The server differs from its card')
      const row = (claim: string) => drift.locator('tbody tr', { has: page.locator('td.mono', { hasText: new RegExp(`^${claim}$`) }) })
      await expect(row('version')).toContainText('changed')
      await expect(row('version')).toContainText('2.3.0')
      await expect(row('version')).toContainText('2.4.0')
      await expect(row('capabilities.prompts')).toContainText('only in card')
      await expect(row('tool search')).toContainText('only in card')
      await expect(row('tool echo')).toContainText('changed')
      await expect(row('tool echo')).toContainText('/inputSchema/text')
      await drift.scrollIntoViewIfNeeded()
      await page.screenshot({ path: 'test-results/e2e-artifacts/server-card-drift.png', fullPage: true })
    })
  } finally {
    await server.close()
  }
})
