import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

// A tool run as an MCP task from the call surface, against @modelcontextprotocol/server-everything (its
// tools always with explicit arguments): its states show in the conversation as an A2A task's do, and
// the Tasks dialog lists it.
const require = createRequire(import.meta.url)
const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js')

test('a tool run as a task: its life in the conversation timeline, and listed under Tasks', async ({ page, host }) => {
  test.setTimeout(180_000)
  await page.goto(host.url)
  await addAndConnect(page, { name: 'everything', command: `${process.execPath} ${entry} stdio` }, 60_000)

  await test.step('the call surface offers "as a task" for a tool that supports it, and runs it so', async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    await expect(page.getByLabel('Tool to call').locator('option', { hasText: 'simulate-research-query' })).toHaveCount(1, {
      timeout: 30_000,
    })
    await page.getByLabel('Tool to call').selectOption('simulate-research-query')
    await expect(page.getByLabel('as a task')).toBeChecked() // the tool requires it
    // How long Parallax follows it: the target's task deadline (10 minutes unless the target says otherwise).
    await expect(page.getByTestId('task-deadline')).toHaveText('· followed up to 10 min')
    await page.getByRole('button', { name: 'JSON', exact: true }).click()
    await page.getByLabel('Raw arguments (JSON)').fill('{"topic": "tide pools", "ambiguous": false}')
    await page.screenshot({ path: 'test-results/mcp-task-call.png' })
    await page.getByRole('button', { name: 'Call', exact: true }).click()
    await expect(page.getByTestId('call-result')).toContainText('Research Report: tide pools', { timeout: 30_000 })
  })

  await test.step('the conversation shows each state the task was seen in, in A2A words', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const timeline = page.locator('.panel')
    await expect(timeline).toContainText('Gathering sources...')
    await expect(timeline.locator('.state-chip.working').first()).toBeVisible()
    await expect(timeline.locator('.state-chip.completed').first()).toBeVisible()
    await page.screenshot({ path: 'test-results/mcp-task-timeline.png' })
  })

  await test.step('Tasks lists the connection’s tasks with their state', async () => {
    await page.getByRole('button', { name: 'Tasks…' }).click()
    await expect(page.getByTestId('tasks')).toContainText('completed')
    await page.screenshot({ path: 'test-results/mcp-task-dialog.png' })
  })
})
