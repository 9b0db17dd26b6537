import WebSocket from 'ws'
import { expect, test } from './webHostProcess'

/** Opens the engine socket with the given headers; resolves with the HTTP status it was refused with, or 101. */
function upgradeStatus(origin: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}${path}`, { headers })
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
  expect((await request.get(`${host.origin}/assets/../../package.json`, { headers: { Authorization: `Bearer ${host.token}` } })).status()).toBe(404)
  // Every refusal is logged with its reason.
  await expect.poll(() => host.stderr()).toMatch(/refused GET \/: no token/)
  expect(host.stderr()).toMatch(/refused GET \/: wrong token/)
  expect(host.stderr()).toMatch(/refused GET \/: foreign Origin "http:\/\/evil.example"/)
  expect(host.stderr()).toMatch(/refused GET \/: foreign Host header "rebind.example:\d+"/)
})

test('the engine socket needs the token and a local origin before any command can run', async ({ host }) => {
  expect(await upgradeStatus(host.origin, '/ws', { Origin: host.origin })).toBe(401)
  expect(await upgradeStatus(host.origin, `/ws?token=${host.token}`, { Origin: 'http://evil.example' })).toBe(403)
  expect(await upgradeStatus(host.origin, `/ws?token=${host.token}`, {})).toBe(403)
  expect(await upgradeStatus(host.origin, `/ws?token=${host.token}`, { Origin: host.origin })).toBe(101)
})

test('malformed and invalid commands get a clear error and the socket stays usable', async ({ host }) => {
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws?token=${host.token}`, { headers: { Origin: host.origin } })
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
  const ws = new WebSocket(`${host.origin.replace('http', 'ws')}/ws?token=${host.token}`, { headers: { Origin: host.origin } })
  await new Promise((resolve, reject) => (ws.on('open', resolve), ws.on('error', reject)))
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)))
  ws.send(JSON.stringify({ id: 1, command: 'targets.import', input: { text: 'x'.repeat(9 * 1024 * 1024) } }))
  expect(await closed).toBe(1009)
  expect((await request.get(host.url)).status()).toBe(200)
})
