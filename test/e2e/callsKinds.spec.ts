import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { openUiClient } from '../../web/client'
import { expect, test } from './webHostProcess'

const require = createRequire(import.meta.url)
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

test('the Calls kinds switcher keeps its size after a result taller than the window, and each kind can be picked', async ({
  page,
  host,
}) => {
  const client = await openUiClient(host)
  const saved = await client.invoke('targets.save', {
    name: 'server-everything',
    spec: { kind: 'mcp-stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    approve: true,
  })
  await client.close()
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto(host.url)
  await page.locator(`[data-target="${saved.id}"]`).click()
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
  await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })

  await page.getByRole('tab', { name: /Calls/ }).click()
  await page.getByLabel('Tool to call').selectOption('echo')
  await page.getByRole('button', { name: 'JSON', exact: true }).click()
  await page.getByLabel('Raw arguments (JSON)').fill(JSON.stringify({ message: 'a long answer, line after line. '.repeat(600) }))
  await page.getByRole('button', { name: 'Call', exact: true }).click()
  await expect(page.getByTestId('response')).toContainText('line after line')

  const panel = page.getByTestId('call-surface')
  const overflow = await panel.evaluate((el) => el.scrollHeight - el.clientHeight)
  expect(overflow, 'the panel is taller than the window').toBeGreaterThan(1000)
  const kinds = page.getByRole('tablist', { name: 'What to act on' })
  const expectWhole = async () => {
    const box = await kinds.boundingBox()
    expect(box!.height).toBeGreaterThanOrEqual(24)
    // Nothing of it is cut: its buttons are as tall as it shows them.
    expect(await kinds.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1)
  }
  await expectWhole()
  await page.screenshot({ path: 'test-results/calls-kinds-long-result.png' })

  const surfaces: [RegExp, string][] = [
    [/^Prompts/, 'Prompt to get'],
    [/^Resources/, 'Resource to read'],
    [/^Templates/, 'Resource template'],
    [/^Any request/, 'Method'],
    [/^Tools/, 'Tool to call'],
  ]
  for (const [kind, control] of surfaces) {
    await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight)) // from the bottom of the long answer, as a reader would be
    await expectWhole()
    const tab = kinds.getByRole('tab', { name: kind })
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByLabel(control, { exact: true })).toBeVisible()
  }
  await expect(page.getByTestId('response')).toContainText('line after line')
  await expectWhole()
})
