import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startMediaSalesAgent, type RunningAgent } from '../../shared/demo/a2aAgent'
import { expect, test } from './webHostProcess'

/**
 * The demo agent behind a front of its own, whose card also offers a gRPC interface (which Parallax has
 * no client for): the card's URLs are rewritten to the front, and everything else is passed through
 * as it comes, streams included.
 */
async function agentWithGrpc(agent: RunningAgent): Promise<{ url: string; close: () => Promise<void> }> {
  const body = async (req: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }
  let url = ''
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/.well-known/agent-card.json') {
        const card = JSON.parse((await (await fetch(`${agent.url}${req.url}`)).text()).replaceAll(agent.url, url)) as {
          supportedInterfaces: unknown[]
        }
        card.supportedInterfaces.push({ url: `${url}/a2a/grpc`, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' })
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card))
        return
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && !['host', 'connection', 'content-length'].includes(e[0]),
        ),
      )
      const answer = await fetch(`${agent.url}${req.url}`, {
        method: req.method,
        headers,
        ...(req.method !== 'GET' && req.method !== 'HEAD' && { body: await body(req) }),
      })
      const kept = [...answer.headers].filter(
        ([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name),
      )
      res.writeHead(answer.status, Object.fromEntries(kept))
      if (answer.body) for await (const chunk of answer.body) res.write(chunk)
      res.end()
    })().catch((error: unknown) => res.destroy(error as Error))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

test('the user chooses which of a card’s interfaces a target uses: HTTP+JSON, saved and reconnected over; gRPC not yet; a demo cannot', async ({
  page,
  host,
}) => {
  const agent = await startMediaSalesAgent()
  const front = await agentWithGrpc(agent)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  try {
    await page.goto(host.url)
    const interfaces = page.getByTestId('interfaces')
    const chosen = interfaces.locator('tr[data-chosen="true"]')

    await test.step('a built-in demo is read-only: the card says so, and offers no choice', async () => {
      await page.locator('[data-target="demo:a2a"]').click()
      await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
      await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await expect(page.getByTestId('interface-read-only')).toContainText('A built-in demo cannot be changed')
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC')
      await expect(interfaces.getByRole('button')).toHaveCount(0)
    })

    await test.step('an agent of the user’s own: JSON-RPC by the card’s order, HTTP+JSON to choose, gRPC not supported yet', async () => {
      await page.getByRole('button', { name: '+ Add server' }).click()
      await page.locator('#t-name').fill('my agent')
      await page.getByRole('button', { name: 'A2A agent' }).click()
      await page.locator('#t-url').fill(front.url)
      await page.getByRole('button', { name: 'Save and connect' }).click()
      await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC')
      await expect(interfaces.locator('tr[data-binding="GRPC"]')).toContainText('not supported yet')
      await expect(interfaces.getByRole('button')).toHaveText(['Use this one'])
      await expect(interfaces.locator('tr[data-binding="HTTP+JSON"]').first().getByRole('button')).toHaveAccessibleName('Use HTTP+JSON 1.0')
      await expect(interfaces.locator('tr[data-binding="HTTP+JSON"]').nth(1).getByRole('button')).toHaveCount(0) // v0.3: the same choice
      await expect(page.getByTestId('interface-read-only')).toHaveCount(0)
      await page.screenshot({ path: 'test-results/a2a-interfaces.png' })
    })

    await test.step('Use this one (HTTP+JSON): saved on the target, reconnected over it', async () => {
      await page.getByRole('button', { name: 'Use HTTP+JSON 1.0' }).click()
      await expect(page.locator('.toast')).toContainText('Reconnected')
      await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
      await expect(chosen).toHaveAttribute('data-binding', 'HTTP+JSON')
      await expect(page.getByTestId('agent-card')).toContainText('because this target prefers HTTP+JSON')
      await expect(page.getByTestId('interface-preference')).toContainText('This target uses HTTP+JSON')
      await page.screenshot({ path: 'test-results/a2a-interface-chosen.png' })
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      await expect(page.locator('#t-binding')).toHaveValue('HTTP+JSON')
      await page.getByRole('button', { name: 'Cancel' }).click()
    })

    await test.step('a turn goes over HTTP+JSON: its frames are REST exchanges', async () => {
      await page.getByRole('tab', { name: /Conversation/ }).click()
      await page.getByLabel('Message').fill('search sports video')
      await page.getByLabel('Message').press('Enter')
      await expect(page.locator('[data-kind="status"][data-state="completed"]')).toBeVisible({ timeout: 15_000 })
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page
        .locator('.rows [role="option"]')
        .filter({ hasText: /SendStreamingMessage|SendMessage/ })
        .first()
        .click()
      await expect(page.locator('.detail-head')).toContainText('· rest')
      await expect(page.getByTestId('http-exchange')).toContainText(/POST http:\/\/127\.0\.0\.1:\d+\/a2a\/rest\/message:(stream|send)/)
      await page.screenshot({ path: 'test-results/a2a-interface-rest-frames.png' })
    })

    await test.step('Let Parallax choose: back to the card’s order', async () => {
      await page.getByRole('tab', { name: /Agent card/ }).click()
      await page.getByRole('button', { name: 'Let Parallax choose' }).click()
      await expect(chosen).toHaveAttribute('data-binding', 'JSONRPC', { timeout: 20_000 })
      await expect(page.getByTestId('interface-preference')).toHaveCount(0)
    })
    expect(errors).toEqual([])
  } finally {
    await front.close()
    await agent.close()
  }
})
