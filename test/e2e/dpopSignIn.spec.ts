import { startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'
import { expect, test } from './webHostProcess'

// A server whose tokens are DPoP-bound (RFC 9449): a person signs in as with any server, and the Auth tab
// says what differs: DPoP chosen and why, each server's nonce, the key the token is bound to (its thumbprint).
let server: OAuthMcpFixture
test.beforeEach(async () => {
  server = await startOAuthMcpServer({ byPerson: true, dpop: { nonce: true } })
})
test.afterEach(async () => {
  await server.stop()
})

test('a DPoP-bound sign-in: the Auth tab shows the proofs’ key and each nonce asked for', async ({ page, host }) => {
  test.setTimeout(90_000)
  await page.goto(host.url)
  await page.getByRole('button', { name: '+ Add server' }).click()
  await page.locator('#t-name').fill('dpop')
  await page.getByRole('button', { name: 'MCP over HTTP' }).click()
  await page.locator('#t-url').fill(server.url)
  await page.getByRole('button', { name: 'Save and connect' }).click()
  await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.locator('.reason.bad').getByRole('button', { name: 'Sign in' }).click(),
  ])
  await popup.getByRole('link', { name: 'Approve' }).click()
  await expect(popup.locator('body')).toContainText(/signed in|you can close/i)
  await popup.close()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })

  await page.getByRole('tab', { name: /Auth/ }).click()
  const [thumbprint] = [...server.provider.boundTo.values()]
  // The granted step, opened: the token type and the key it is bound to (never the key itself).
  const granted = page.locator('[data-step="granted"]').first()
  await granted.locator('summary').click()
  await expect(granted.getByTestId('auth-bound-key')).toHaveText(`ES256 ${thumbprint}`)
  await expect(granted).toContainText('DPoP')
  await granted.screenshot({ path: 'test-results/dpop-granted-step.png' })
  const flows = page.getByTestId('auth-panel')
  await expect(flows).toContainText(`DPoP-bound token (ES256, key ${thumbprint})`)
  await expect(flows).toContainText('token request sent again with the server’s DPoP nonce')
  await expect(flows).toContainText('request sent again with the server’s DPoP nonce')
  // The nonce the MCP server asked for after the sign-in is a step of its own, done (no sign-in follows it).
  const nonceFlow = page.getByTestId('auth-flow').filter({ hasText: 'answered use_dpop_nonce with a nonce ("rs-nonce-' })
  await expect(nonceFlow.first()).toHaveAttribute('data-outcome', 'done')
  await page.getByTestId('auth-panel').screenshot({ path: 'test-results/dpop-auth-view.png' })
  const html = await page.content()
  for (const secret of server.provider.issued) expect(html).not.toContain(secret)
})
