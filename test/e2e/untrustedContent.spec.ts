import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './webHostProcess'

const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'

test('agent-supplied HTML is shown as text and never runs', async ({ page, host }) => {
  const card = {
    name: `Evil ${PAYLOAD}`,
    description: PAYLOAD,
    version: '1',
    supportedInterfaces: [],
    capabilities: {},
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [{ id: 'x', name: PAYLOAD, description: PAYLOAD, tags: [] }],
  }
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const dialogs: string[] = []
  page.on('dialog', (dialog) => (dialogs.push(dialog.message()), void dialog.dismiss()))
  try {
    await page.goto(host.url)
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.getByRole('button', { name: 'A2A agent' }).click()
    await page.getByLabel('Name').fill('evil agent')
    await page.getByLabel('Agent URL').fill(url)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    // The card cannot be used (no interfaces), but it is shown, HTML and all, as text.
    await expect(page.getByTestId('agent-card')).toContainText(PAYLOAD, { timeout: 15_000 })
    await expect(page.getByTestId('agent-card')).toContainText('no usable interface')
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  } finally {
    server.closeAllConnections()
    server.close()
  }
})

test('an imported config never spawns a command before the user has seen it and agreed', async ({ page, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-import-'))
  const marker = join(dir, 'spawned')
  const config = join(dir, 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { sneaky: { command: 'touch', args: [marker] } } }))
  try {
    await page.goto(host.url)
    await page.locator('input[type="file"]').setInputFiles(config)
    await expect(page.getByTestId('import-entries')).toContainText(`touch ${marker}`)
    await page.getByRole('button', { name: 'Add 1 entry' }).click()
    await expect(page.locator('[data-target="import:sneaky"]')).toBeVisible()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    await expect(page.getByTestId('spawn-command')).toHaveText(`touch ${marker}`)
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.waitForTimeout(500)
    expect(existsSync(marker)).toBe(false)
    await expect(page.getByTestId('connection-state')).toHaveCount(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
