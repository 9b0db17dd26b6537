import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import WebSocket from 'ws'
import { fixtureTarget } from '../fixtures/targets'
import { openApprovedTarget, openUiClient, waitConnected } from '../../web/client'
import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

/** Opens the engine socket with the given headers; resolves with the HTTP status it was refused with, or 101. */
function upgradeStatus(origin: string, path: string, headers: Record<string, string>, protocols: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}${path}`, protocols, { headers })
    ws.on('open', () => {
      ws.close()
      resolve(101)
    })
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.on('error', reject)
  })
}

test('the web host refuses requests without the launch token, from foreign origins, and via rebinding hosts', async ({ request, host }) => {
  expect((await request.get(`${host.origin}/`)).status()).toBe(401)
  expect((await request.get(`${host.origin}/?token=wrong-token`)).status()).toBe(401)
  expect((await request.get(host.url)).status()).toBe(200)
  expect((await request.get(host.url, { headers: { Origin: 'http://evil.example' } })).status()).toBe(403)
  expect((await request.get(host.url, { headers: { Host: `rebind.example:${new URL(host.origin).port}` } })).status()).toBe(403)
  expect(
    (await request.get(`${host.origin}/assets/../../package.json`, { headers: { Authorization: `Bearer ${host.token}` } })).status(),
  ).toBe(404)
  // Every refusal is logged with its reason.
  await expect.poll(() => host.stderr()).toMatch(/refused GET \/: no token/)
  await expect.poll(() => host.stderr()).toMatch(/refused GET \/: wrong token/)
  await expect.poll(() => host.stderr()).toMatch(/refused GET \/: foreign Origin "http:\/\/evil.example"/)
  await expect.poll(() => host.stderr()).toMatch(/refused GET \/: foreign Host header "rebind.example:\d+"/)
})

test('the engine socket needs the token (as a subprotocol or a bearer header) and a local origin before any command can run', async ({
  host,
}) => {
  const offered = ['parallax', `parallax.token.${host.token}`]
  expect(await upgradeStatus(host.origin, '/ws', { Origin: host.origin })).toBe(401)
  expect(await upgradeStatus(host.origin, '/ws', { Origin: host.origin }, ['parallax', 'parallax.token.wrong-token'])).toBe(401)
  expect(await upgradeStatus(host.origin, '/ws', { Origin: 'http://evil.example' }, offered)).toBe(403)
  expect(await upgradeStatus(host.origin, '/ws', {}, offered)).toBe(403)
  expect(
    await upgradeStatus(host.origin, '/ws', { Origin: host.origin, Host: `rebind.example:${new URL(host.origin).port}` }, offered),
  ).toBe(403)
  expect(await upgradeStatus(host.origin, '/ws', { Origin: host.origin }, offered)).toBe(101)
  expect(await upgradeStatus(host.origin, '/ws', { Origin: host.origin, Authorization: `Bearer ${host.token}` })).toBe(101)
  // The host selects `parallax`: the token is never echoed back.
  const page = await openUiClient(host)
  expect(page.protocol).toBe('parallax')
  await page.close()
})

test('the launch token never lives in a cookie: a local program the browser visits gets a cookie that opens nothing', async ({
  page,
  host,
}) => {
  // Another program on this machine, listening on a port of its own: browsers send it every 127.0.0.1 cookie.
  const seen: IncomingHttpHeaders[] = []
  const elsewhere = createServer((req, res) => {
    seen.push(req.headers)
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>some other local app</title>')
  })
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
  try {
    await test.step('the user opens Parallax from the launch URL; the page keeps the token in its tab only', async () => {
      await page.goto(host.url)
      await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
      expect(page.url()).not.toContain('token')
      expect(await page.evaluate(() => sessionStorage.getItem('parallax.token'))).toBe(host.token)
      const cookies = await page.context().cookies(host.origin)
      expect(cookies.length).toBeGreaterThan(0)
      for (const cookie of cookies) {
        expect(cookie.value).not.toContain(host.token)
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
      }
    })

    const cookieHeader = await test.step('the browser visits the other local program, which receives the Parallax cookie', async () => {
      await page.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`)
      const cookie = seen.map((h) => h.cookie).find((c) => c?.includes(`parallax_page_${new URL(host.origin).port}=`))
      expect(cookie, 'browsers send 127.0.0.1 cookies to every port').toBeTruthy()
      expect(cookie).not.toContain(host.token)
      return cookie!
    })

    await test.step('with that cookie, the program can neither open the engine socket nor run a command', async () => {
      // It can forge Origin and Host (it is not a browser): only the token opens the socket.
      const forged = { Origin: host.origin, Cookie: cookieHeader }
      expect(await upgradeStatus(host.origin, '/ws', forged)).toBe(401)
      expect(await upgradeStatus(host.origin, '/ws', forged, ['parallax'])).toBe(401)
      expect(await upgradeStatus(host.origin, '/ws', forged, ['parallax', 'parallax.token.'])).toBe(401)
      // The old way in, a token in the socket URL, is gone too (it would land in logs and history).
      expect(await upgradeStatus(host.origin, `/ws?token=${host.token}`, { Origin: host.origin })).toBe(401)
      await expect.poll(() => host.stderr()).toMatch(/refused WebSocket \/ws: only the page cookie/)
      await expect.poll(() => host.stderr()).toMatch(/refused WebSocket \/ws: a token in the URL/)
      // All the cookie gives is the page's own static files, which hold nothing secret.
      const { status, body } = await fetchWith(`${host.origin}/`, { Cookie: cookieHeader })
      expect(status).toBe(200)
      expect(body).not.toContain(host.token)
    })

    await test.step('the real UI still works, and after a reload too', async () => {
      await page.goto(host.url)
      await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
      await page.reload()
      await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
      expect(page.url()).not.toContain('token')
      await openDemo(page, 'Demo prompt library')
    })
  } finally {
    elsewhere.closeAllConnections()
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()))
  }
})

test('malformed and invalid commands get a clear error and the socket stays usable', async ({ host }) => {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws`, ['parallax', `parallax.token.${host.token}`], {
    headers: { Origin: host.origin },
  })
  await new Promise((resolve, reject) => (ws.on('open', resolve), ws.on('error', reject)))
  const replies: { id: number; ok: boolean; error?: { message: string } }[] = []
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString())
    if ('id' in message) replies.push(message)
  })
  ws.send('not json')
  ws.send(JSON.stringify({ id: 1, command: 'connections.open', input: { targetId: 42 } }))
  ws.send(JSON.stringify({ id: 2, command: 'process.spawn', input: {} }))
  ws.send(JSON.stringify({ id: 3, command: 'app.info', input: {} }))
  await expect.poll(() => replies.length).toBe(4)
  expect(replies.find((r) => r.id === -1)?.error?.message).toMatch(/malformed/)
  expect(replies.find((r) => r.id === 1)?.error?.message).toMatch(/invalid input for connections.open: targetId/)
  expect(replies.find((r) => r.id === 2)?.error?.message).toMatch(/unknown command/)
  expect(replies.find((r) => r.id === 3)?.ok).toBe(true)
  ws.close()
})

test('an oversized WebSocket message closes that socket (1009) and the host keeps serving', async ({ host, request }) => {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws`, {
    headers: { Origin: host.origin, Authorization: `Bearer ${host.token}` },
  })
  await new Promise((resolve, reject) => (ws.on('open', resolve), ws.on('error', reject)))
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  ws.send(JSON.stringify({ id: 1, command: 'targets.import', input: { text: 'x'.repeat(9 * 1024 * 1024) } }))
  expect(await closed).toBe(1009)
  expect((await request.get(host.url)).status()).toBe(200)
})

test('a 20 MB tool result reaches the page as a bounded preview that says where the whole is', async ({ page, host }) => {
  // The server is saved and started as a user would, through the command API.
  const client = await openUiClient(host)
  const { origin: _origin, id: _id, ...draft } = fixtureTarget('misbehaving', ['huge', '20'])
  const { targetId, connectionId } = await openApprovedTarget(client, { ...draft, name: 'huge results' })
  await waitConnected(client, connectionId)
  await client.close()

  await page.goto(host.url)
  await page.locator(`[data-target="${targetId}"]`).click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 20_000 })
  await page.getByRole('tab', { name: /Calls/ }).click()
  await page.getByLabel('Tool to call').selectOption('echo')
  const answers: number[] = []
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => answers.push(frame.payload.length)))
  await page.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(page.getByTestId('cut-note').first()).toContainText(
    /Parallax cut [\d,]+ characters of 20,971,520; the whole payload is in frame #\d+/,
    { timeout: 20_000 },
  )
  await page.getByRole('tab', { name: /Conversation/ }).click()
  await expect(page.getByText(/Parallax cut [\d,]+ characters of 20,971,520/).first()).toBeVisible()
  expect(Math.max(0, ...answers)).toBeLessThan(1024 * 1024)
})

/** A plain GET with exactly these headers (Playwright's request context would add its own cookies). */
async function fetchWith(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { headers })
  return { status: response.status, body: await response.text() }
}
