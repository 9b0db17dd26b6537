import { MediaSalesExecutor } from '../../shared/demo/a2aAgent'
import { startOAuthA2aAgent, startOAuthMcpServer, type OAuthMcpFixture } from '../fixtures/oauthServers'
import { expect, test } from './webHostProcess'

// Signing in to an OAuth-protected MCP server as a person does: the server answers 401, the page says a
// sign-in is needed, Sign in opens the authorization page (here a popup the test approves), the answer
// comes back to Parallax's loopback redirect on 127.0.0.1, and the session connects. The Auth tab shows
// every step; no token ever reaches the page.
let server: OAuthMcpFixture
test.beforeEach(async () => {
  server = await startOAuthMcpServer({ byPerson: true })
})
test.afterEach(async () => {
  await server.stop()
})

test('sign in through the browser and the loopback redirect, see every step, sign out', async ({ page, host }) => {
  test.setTimeout(90_000)
  await page.goto(host.url)

  await test.step('the server answers 401: the page says a sign-in is needed', async () => {
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.locator('#t-name').fill('protected')
    await page.getByRole('button', { name: 'MCP over HTTP' }).click()
    await page.locator('#t-url').fill(server.url)
    await page.getByRole('button', { name: 'Save and connect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
    await expect(page.locator('.reason.bad')).toContainText(/sign.in/i)
    await page.screenshot({ path: 'test-results/sign-in-needed.png' })
  })

  await test.step('Sign in opens the authorization page; approving it connects the session', async () => {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.locator('.reason.bad').getByRole('button', { name: 'Sign in' }).click(),
    ])
    await expect(popup.getByRole('heading')).toContainText('Allow')
    await expect(popup.locator('body')).toContainText('mcp:read')
    await popup.getByRole('link', { name: 'Approve' }).click()
    await expect(popup.locator('body')).toContainText(/signed in|you can close/i)
    await popup.close()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
  })

  await test.step('the Auth tab: signed in, the scopes granted, every step of the sign-in, no token', async () => {
    await page.getByRole('tab', { name: /Auth/ }).click()
    const status = page.getByTestId('auth-status')
    await expect(status.locator('.badge')).toHaveText('signed in')
    await expect(page.getByTestId('auth-scopes')).toContainText('mcp:read')
    await expect(page.getByTestId('auth-expiry')).toContainText(/in \d+ min|in 1 h/)
    await expect(status).toContainText('registered dynamically')
    await page.screenshot({ path: 'test-results/sign-in-status.png' })
    const flow = page.getByTestId('auth-flow').first()
    await expect(flow).toHaveAttribute('data-outcome', 'granted')
    for (const phase of ['resource-metadata', 'authorization-server-metadata', 'registration', 'authorization', 'token'])
      await expect(flow.locator(`[data-phase="${phase}"]`).first()).toBeVisible()
    await expect(flow.locator('[data-step="authorize"]')).toHaveCount(1)
    await expect(flow.locator('[data-step="callback"]')).toHaveCount(1)
    // The token exchange, opened: its request and response, with the secrets redacted.
    const token = flow.locator('[data-phase="token"][data-step="request"]').first()
    await token.locator('summary').click()
    await expect(token).toContainText('Response 200')
    await page.getByTestId('auth-panel').screenshot({ path: 'test-results/sign-in-auth-view.png' })
    const html = await page.content()
    for (const secret of server.provider.issued) expect(html).not.toContain(secret)
  })

  await test.step('Sign out forgets the token: a new session needs a sign-in again', async () => {
    await page.getByTestId('auth-actions').getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByTestId('auth-status').locator('.badge')).toHaveText('not signed in')
    await expect(page.getByTestId('auth-flow').first()).toHaveAttribute('data-outcome', 'signed out')
    await page.getByRole('button', { name: 'Reconnect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
  })
})

test('step-up: the server asks for more access mid-session; the page asks, the person signs in again, the call goes again', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await page.goto(host.url)
  const approve = async (open: () => Promise<unknown>, scopes: string) => {
    const [popup] = await Promise.all([page.waitForEvent('popup'), open()])
    await expect(popup.locator('body')).toContainText(scopes)
    await popup.getByRole('link', { name: 'Approve' }).click()
    await expect(popup.locator('body')).toContainText(/signed in|you can close/i)
    await popup.close()
  }

  await test.step('signed in with mcp:read, connected', async () => {
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.locator('#t-name').fill('orders')
    await page.getByRole('button', { name: 'MCP over HTTP' }).click()
    await page.locator('#t-url').fill(server.url)
    await page.getByRole('button', { name: 'Save and connect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
    await approve(() => page.locator('.reason.bad').getByRole('button', { name: 'Sign in' }).click(), 'mcp:read')
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
  })

  const callPlaceOrder = async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    await page.getByLabel('Tool to call').selectOption('place_order')
    await page.getByRole('button', { name: 'Call', exact: true }).click()
  }
  const prompt = page.getByTestId('more-access')

  await test.step('a call the token does not cover: the page names the scopes and waits; the Auth tab says so', async () => {
    await callPlaceOrder()
    await expect(prompt).toContainText('This server asks for more access')
    await expect(prompt.locator('.cap.on')).toHaveText('mcp:write')
    await expect(prompt).toContainText('tools/call place_order')
    await expect(page.getByRole('button', { name: 'Calling…' })).toBeVisible()
    await page.screenshot({ path: 'test-results/step-up-prompt.png' })
    await page.getByRole('tab', { name: /Auth/ }).click()
    await expect(page.getByRole('tab', { name: /Auth/ })).toContainText('more access')
    await expect(page.getByTestId('auth-status').locator('.badge')).toHaveText('needs more access')
    await expect(page.getByTestId('auth-more-access')).toContainText('more access (scope mcp:write) for tools/call place_order')
    await expect(page.getByTestId('auth-flow').first()).toHaveAttribute('data-outcome', 'waiting for you')
    await page.screenshot({ path: 'test-results/step-up-auth-tab.png' })
  })

  await test.step('Cancel: the call fails saying what was asked and that the person declined', async () => {
    await prompt.getByRole('button', { name: 'Cancel' }).click()
    await expect(prompt).toHaveCount(0)
    await page.getByRole('tab', { name: /Calls/ }).click()
    await expect(page.getByTestId('call-result').first()).toContainText(
      'Call failed: the server asks for more access (scope "mcp:write", HTTP 403 insufficient_scope) and you chose not to sign in again',
    )
  })

  await test.step('Sign in again: the sign-in page asks for both scopes; approved, the call goes again and its result shows', async () => {
    await callPlaceOrder()
    await expect(prompt).toBeVisible()
    await approve(() => prompt.getByRole('button', { name: 'Sign in again' }).click(), 'mcp:read mcp:write')
    await expect(prompt).toHaveCount(0)
    await expect(page.getByTestId('call-result').first()).toContainText('ordered')
    await expect(page.getByTestId('call-result').first()).not.toContainText('Call failed')
    await page.screenshot({ path: 'test-results/step-up-done.png' })
    await page.getByRole('tab', { name: /Auth/ }).click()
    await expect(page.getByTestId('auth-status').locator('.badge')).toHaveText('signed in')
    await expect(page.getByTestId('auth-scopes')).toContainText('mcp:write')
    expect(server.provider.clients.size).toBe(1) // the registration was kept
  })
})

test('an A2A agent behind OAuth client credentials: the editor takes the client, the card shows its scheme, the secret stays off the page', async ({
  page,
  host,
}) => {
  test.setTimeout(60_000)
  const client = { id: 'partner-client', secret: 'partner-secret-4f9a2c' }
  const agent = await startOAuthA2aAgent(new MediaSalesExecutor(), client)
  try {
    await page.goto(host.url)
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.locator('#t-name').fill('partner agent')
    await page.getByRole('button', { name: 'A2A agent' }).click()
    await page.locator('#t-url').fill(agent.url)
    await page.getByText('OAuth', { exact: false }).first().click()
    await page.locator('#t-client-id').fill(client.id)
    await page.locator('#t-client-secret').fill(client.secret)
    await page.screenshot({ path: 'test-results/sign-in-editor-oauth.png' })
    await page.getByRole('button', { name: 'Save and connect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
    const security = page.getByTestId('a2a-security')
    await expect(security).toContainText('partnerOAuth')
    await expect(security).toContainText('OAuth 2 (clientCredentials)')
    // The card is public; the first message meets the agent's 401 and Parallax gets a token without a person.
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const message = page.getByLabel('Message')
    await message.fill('list products')
    await message.press('Enter')
    await expect(page.locator('[data-kind="status"][data-state="completed"]').first()).toBeVisible({ timeout: 20_000 })
    await page.getByRole('tab', { name: /Auth/ }).click()
    await expect(page.getByTestId('auth-status').locator('.badge')).toHaveText('signed in')
    await expect(page.getByTestId('auth-status')).toContainText('by client credentials')
    await expect(page.getByTestId('auth-flow').first()).toHaveAttribute('data-outcome', 'granted')
    await page.screenshot({ path: 'test-results/sign-in-a2a-client-credentials.png' })
    const html = await page.content()
    for (const secret of [client.secret, ...agent.provider.issued]) expect(html).not.toContain(secret)
  } finally {
    await agent.stop()
  }
})
