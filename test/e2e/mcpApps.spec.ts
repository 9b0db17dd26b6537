import { createSocket } from 'node:dgram'
import { request } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { openUiClient } from '../../web/client'
import { expect, test, type RunningWebHost } from './webHostProcess'

// MCP Apps in Chromium: a tool's view rendered in a sandboxed frame served from an origin of its own, bridged
// to Parallax, every message between them a frame. First the example server from npm, then a hand-written
// one whose view misbehaves.
const require = createRequire(import.meta.url)
// The package exports only its server module; the command-line entry (`--stdio`) sits beside it.
const BASIC = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js')
const TSX = require.resolve('tsx')
const APP_VIEWS = fileURLToPath(new URL('../fixtures/servers/appViews.ts', import.meta.url))

/** Saves a stdio server as the user's own target (approved, as the editor does), opens its page and connects. */
async function openServer(page: Page, host: RunningWebHost, name: string, args: string[]): Promise<void> {
  const client = await openUiClient(host)
  const saved = await client.invoke('targets.save', { name, spec: { kind: 'mcp-stdio', command: process.execPath, args }, approve: true })
  await client.close()
  await page.goto(host.url)
  await page.locator(`[data-target="${saved.id}"]`).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
}

/** The HTTP status a GET of `url` gets when it names another host (a DNS-rebound name, say). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port, pathname } = new URL(url)
    request({ hostname, port, path: pathname, headers: { Host: `${host}:${port}` } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
      .on('error', reject)
      .end()
  })
}

/** Calls a tool from its Catalog entry, with the arguments its form starts with. */
async function callFromCatalog(page: Page, tool: string): Promise<void> {
  await page.getByRole('tab', { name: /Catalog/ }).click()
  const entry = page.locator('details.item', { has: page.locator('.item-name', { hasText: new RegExp(`^${tool}$`) }) })
  await entry.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(page.getByLabel('Tool to call')).toHaveValue(tool)
  await page.getByRole('button', { name: 'Call', exact: true }).click()
}

test('an App from npm renders in a sandboxed frame of its own origin, calls its tool through Parallax, and every message is a frame', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await openServer(page, host, 'basic app', [BASIC, '--stdio'])
  const dock = page.getByTestId('app-view')

  await test.step('the Catalog marks the App tool and its view, with their UI metadata', async () => {
    await page.getByRole('tab', { name: /Catalog/ }).click()
    const tool = page.locator('details.item', { has: page.locator('.item-name', { hasText: /^get-time$/ }) })
    await expect(tool.getByTestId('app-badge')).toBeVisible()
    await tool.locator('summary').click()
    const metadata = tool.getByTestId('app-metadata')
    await expect(metadata).toContainText('ui://get-time/mcp-app.html')
    await expect(metadata).toContainText('the model and its view')
    await expect(metadata).toContainText('read with it (resources/read) when the view opens')
    const view = page.locator('details.item', { has: page.locator('.item-name', { hasText: /^ui:\/\/get-time\/mcp-app\.html$/ }) })
    await expect(view.getByTestId('app-badge')).toBeVisible()
    await page.screenshot({ path: 'test-results/apps-catalog.png' })
  })

  const frame = page.frameLocator('[data-testid="app-view-frame"]')
  await test.step('calling it renders its view, which gets the tool result', async () => {
    await callFromCatalog(page, 'get-time')
    await expect(dock.getByTestId('app-view-phase')).toHaveText('running', { timeout: 20_000 })
    await expect(frame.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/, { timeout: 10_000 })
    await expect(dock).toContainText('Get Time App')
    await expect(dock.getByTestId('app-view-policy')).toContainText('nothing declared: the default, no network')
    await page.screenshot({ path: 'test-results/apps-view.png' })
  })

  await test.step('the view is sandboxed, on another origin, and cannot reach Parallax', async () => {
    const iframe = page.getByTestId('app-view-frame')
    await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts')
    const src = (await iframe.getAttribute('src'))!
    expect(new URL(src).origin).not.toBe(new URL(host.url).origin)
    const child = page.frames().find((f) => f.url() === src)!
    const seen = await child.evaluate(() => {
      const attempt = (f: () => unknown) => {
        try {
          return String(f())
        } catch (error) {
          return `refused (${(error as Error).name})`
        }
      }
      return {
        origin: self.origin,
        parent: attempt(() => window.parent.document.title),
        storage: attempt(() => sessionStorage.length),
        cookie: attempt(() => document.cookie),
      }
    })
    expect(seen).toEqual({
      origin: 'null',
      parent: 'refused (SecurityError)',
      storage: 'refused (SecurityError)',
      cookie: 'refused (SecurityError)',
    })
    // Served with its policy, framable only by the UI, and not at all as a page of its own.
    const served = await fetch(src)
    expect(served.status).toBe(200)
    const policy = served.headers.get('content-security-policy')!
    expect(policy).toMatch(/^sandbox allow-scripts; default-src 'none';/)
    expect(policy).toContain("connect-src 'none'")
    expect(policy).toContain(`frame-ancestors ${new URL(host.url).origin}`)
    const alone = await page.context().newPage()
    const response = await alone.goto(src)
    expect(response?.status()).toBe(403)
    await alone.close()
    expect((await fetch(src.replace(/[0-9a-f]{32}$/, '0'.repeat(32)))).status).toBe(404)
    expect(await statusWithHost(src, 'rebound.example.com')).toBe(403)
  })

  await test.step('a button in the view calls its tool: through Parallax, an inspected call like any other', async () => {
    const before = await frame.locator('#server-time').textContent()
    await page.waitForTimeout(20) // a later time
    await frame.getByRole('button', { name: 'Get Server Time' }).click()
    await expect(frame.locator('#server-time')).not.toHaveText(before!, { timeout: 10_000 })
    await expect(frame.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/)
    await page.getByRole('tab', { name: /Calls/ }).click()
    await expect(page.getByTestId('call-result')).toContainText('called by its App view (ui://get-time/mcp-app.html)')
  })

  await test.step('what the view asks of its host shows: a message for the conversation, a link opened only on a click', async () => {
    await frame.getByRole('button', { name: 'Send Message' }).click()
    await expect(dock.getByTestId('app-view-asks')).toContainText('This is message text.')
    await frame.getByRole('button', { name: 'Open Link' }).click()
    await expect(dock.getByTestId('app-view-asks')).toContainText('The view asks to open')
    await page.screenshot({ path: 'test-results/apps-asks.png' })
    await dock.getByRole('button', { name: 'Refuse' }).click()
    await expect(dock.getByTestId('app-view-asks')).not.toContainText('The view asks to open')
  })

  await test.step('a theme change reaches the view (ui/notifications/host-context-changed), which takes Parallax’s colours', async () => {
    await page.getByRole('button', { name: '☾ Dark' }).click()
    await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark')
    await page.screenshot({ path: 'test-results/apps-dark.png' })
  })

  await test.step('Frames: each message between the view and Parallax, beside the server’s own', async () => {
    await dock.getByTestId('app-view-frames').click()
    await expect(page.getByRole('tab', { name: /Frames/ })).toHaveAttribute('aria-selected', 'true')
    await expect(dock).toBeVisible() // the view stays while its frames are looked at
    await page.getByLabel('Whose messages').selectOption('view')
    const filter = page.getByLabel('Filter frames by method')
    for (const [method, direction] of [
      ['ui/initialize', 'in'],
      ['ui/notifications/initialized', 'in'],
      ['ui/notifications/tool-input', 'out'],
      ['ui/notifications/tool-result', 'out'],
      ['tools/call', 'in'],
      ['ui/message', 'in'],
      ['ui/open-link', 'in'],
    ]) {
      await filter.fill(method)
      await expect(page.locator(`.row[data-method="${method}"][data-direction="${direction}"]`).first()).toBeVisible()
    }
    await filter.fill('ui/initialize')
    await page.locator('.row[data-method="ui/initialize"][data-direction="in"]').first().click()
    await expect(page.getByTestId('view-exchange')).toContainText(
      'From the MCP App view of ui://get-time/mcp-app.html (mcp-app over postMessage',
    )
    await expect(page.getByTestId('frame-pair')).toHaveText(/answer #\d+ →/)
    await page.screenshot({ path: 'test-results/apps-frames.png' })
    // The view's tool call on the server's wire too: the server's own frames, not the view's.
    await page.getByLabel('Whose messages').selectOption('server')
    await filter.fill('tools/call')
    await expect(page.locator('.row[data-method="tools/call"][data-direction="out"]')).toHaveCount(2)
    await expect(page.locator('.row .view-mark')).toHaveCount(0)
  })

  await test.step('Close tears the view down (ui/resource-teardown) and its frames stay', async () => {
    await dock.getByRole('button', { name: 'Close', exact: true }).click()
    await expect(dock).toHaveCount(0)
    await page.getByLabel('Whose messages').selectOption('view')
    await page.getByLabel('Filter frames by method').fill('ui/resource-teardown')
    await expect(page.locator('.row[data-method="ui/resource-teardown"][data-direction="out"]')).toHaveCount(1)
  })
})

test('a view that breaks the rules: a model-only tool refused, garbage and a flood kept as frames, a policy enforced, a resource that is not HTML', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  await openServer(page, host, 'app views', ['--import', TSX, APP_VIEWS])
  const dock = page.getByTestId('app-view')
  const frame = page.frameLocator('[data-testid="app-view-frame"]')
  const status = frame.locator('#status')

  await test.step('the policy the resource declared, with what was left out and why', async () => {
    await callFromCatalog(page, 'show-board')
    await expect(status).toHaveText('tool result: board shown 1 time(s)', { timeout: 20_000 })
    const policy = dock.getByTestId('app-view-policy')
    await expect(policy).toContainText('as its resource declares')
    await expect(policy).toContainText('clipboard-write')
    await policy.locator('summary').click()
    await expect(policy).toContainText('connect-src https://api.example.com;')
    await expect(policy).toContainText('is not an origin (scheme://host[:port]); left out of the policy')
    await expect(page.getByTestId('app-view-frame')).toHaveAttribute('allow', 'clipboard-write')
    await frame.getByRole('button', { name: 'Fetch a page' }).click()
    await expect(status).toHaveText('blocked by the policy: connect-src http://127.0.0.1:9/')
    await page.screenshot({ path: 'test-results/apps-policy.png' })
  })

  await test.step('the view calls its app-only tool and reads its server’s resource through Parallax; a model-only tool is refused before it reaches the server', async () => {
    await frame.getByRole('button', { name: 'Refresh (app-only tool)' }).click()
    await expect(status).toHaveText(/^refreshed at call \d+$/)
    await frame.getByRole('button', { name: 'Secret plan (model-only tool)' }).click()
    await expect(status).toContainText('secret-plan, which its server lists for the model only')
    await frame.getByRole('button', { name: 'Read data' }).click()
    await expect(status).toHaveText('read: {"rows": []}')
  })

  await test.step('garbage is refused, said, and kept as frames', async () => {
    await frame.getByRole('button', { name: 'Send garbage' }).click()
    await expect(dock).toContainText('the view sent a message that is not a JSON-RPC 2.0 message; it was not handed on')
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.getByLabel('Whose messages').selectOption('view')
    await page.getByLabel('Kind').selectOption('error')
    // The two refused messages from the view, and Parallax's error answer to the model-only call.
    await expect(page.getByTestId('frame-count')).toHaveText(/^3 of \d+ frames$/)
    await expect(page.locator('.row[data-direction="in"]')).toHaveCount(2)
    await page.locator('.row[data-direction="in"]').first().click()
    await expect(page.getByTestId('truncated')).toContainText('Parallax refused this message (not a JSON-RPC 2.0 message)')
  })

  await test.step('a flood stops the view; what it sent until then is recorded; Parallax goes on', async () => {
    // The rule counts every message from the view within a second: let the garbage above leave that second,
    // so the flood alone fills it and at least 501 of its messages must be on record.
    await page.waitForTimeout(1_100)
    await frame.getByRole('button', { name: 'Flood' }).click()
    await expect(dock.getByTestId('app-view-stopped')).toContainText('it sent more than 500 messages within a second', { timeout: 20_000 })
    await expect(page.getByTestId('app-view-frame')).toHaveCount(0)
    await expect(dock).not.toContainText('could not be recorded')
    await page.getByLabel('Kind').selectOption('notification')
    await page.getByLabel('Direction').selectOption('in')
    await page.getByLabel('Filter frames by method').fill('notifications/message')
    await expect(page.getByTestId('frame-count')).toHaveText(/^(50[1-9]|5[1-9]\d|[6-9]\d\d|[1-9]\d{3}) of /, { timeout: 20_000 })
    await page.screenshot({ path: 'test-results/apps-flood.png' })
    await page.getByRole('tab', { name: /Log/ }).click()
    await expect(page.getByText(/closed: stopped: it sent more than 500 messages within a second/)).toBeVisible()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/)
  })

  await test.step('a tool whose view is not HTML: the view says why it cannot be shown', async () => {
    await callFromCatalog(page, 'show-data')
    await expect(dock.getByTestId('app-view-error')).toContainText('ui://board/data.json is application/json, not an App view')
    await page.screenshot({ path: 'test-results/apps-not-html.png' })
  })
})

test('a view cannot open WebRTC to a host it did not declare, and the panel says what the browser enforces and what it does not', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000)
  // A STUN server the view never declared: every packet WebRTC sends it is counted.
  const stun = createSocket('udp4')
  let packets = 0
  stun.on('message', () => packets++)
  await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve))
  try {
    await openServer(page, host, 'app views', ['--import', TSX, APP_VIEWS, '--stun-port', String(stun.address().port)])
    await callFromCatalog(page, 'show-call')
    const frame = page.frameLocator('[data-testid="app-view-frame"]')
    await expect(frame.locator('#call')).toHaveText(/^itself: no WebRTC/, { timeout: 20_000 })
    await expect(frame.locator('#frame')).toHaveText(/^from a frame: no WebRTC/)
    await expect(frame.locator('#features')).toHaveText('sync-xhr denied, camera denied')
    await page.waitForTimeout(1_500)
    expect(packets).toBe(0)

    const policy = page.getByTestId('app-view').getByTestId('app-view-policy')
    await expect(policy.locator('summary')).toContainText('WebRTC not enforced by the browser')
    await policy.locator('summary').click()
    const said = policy.getByTestId('app-view-enforced').locator('dd')
    await expect(said.nth(0)).toContainText(/^enforced fetch, WebSocket/)
    await expect(said.nth(1)).toContainText(
      /^enforced camera, microphone, .*none declared, none delegated; the frame's Permissions Policy denies/,
    )
    await expect(said.nth(2)).toContainText(/^not enforced by the browser WebRTC reaches any host.* Parallax takes WebRTC out of the view/)
    await expect(policy).toContainText("webrtc 'block'")
    await expect(policy).toContainText('camera=()')
    await page.screenshot({ path: 'test-results/apps-webrtc.png' })
  } finally {
    stun.close()
  }
})
