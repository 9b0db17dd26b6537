import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { quoteArg } from '../../shared/contract'
import { expect, test } from './webHostProcess'

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const STABLE_AGENT = [process.execPath, '--import', TSX, fileURLToPath(new URL('../fixtures/acp/stableAgent.ts', import.meta.url)), 'basic']
  .map(quoteArg)
  .join(' ')

test('the demo agent over ACP: handshake, a prompt whose tool calls stream in, a permission answered', async ({ page, host }) => {
  await page.goto(host.url)

  await test.step('open the ACP face: the handshake says what was offered and what the agent answered', async () => {
    await page.locator('[data-target="demo:acp"]').click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
    const handshake = page.getByTestId('acp-handshake')
    await expect(handshake).toContainText('Demo media-sales agent')
    await expect(handshake.getByTestId('acp-session')).toContainText('session/new')
    await expect(handshake).toContainText('ACP has no ping')
    await page.screenshot({ path: 'test-results/acp-handshake.png' })
  })

  await test.step('a prompt: the plan, the tool calls as they change, and the agent asking before it books', async () => {
    await page.getByRole('tab', { name: /Conversation/ }).click()
    const prompt = page.getByLabel('Prompt')
    await prompt.fill('Find video for a sneaker launch and book it')
    await prompt.press('Enter')
    await expect(page.locator('[data-kind="tool"][data-tool="get_products"][data-state="completed"]')).toBeVisible({ timeout: 15_000 })
    await expect(page.locator('[data-kind="plan"]').first()).toBeVisible()
    const ask = page.getByTestId('server-request')
    await expect(ask).toContainText('The agent asks your permission')
    await expect(ask).toContainText('Book prod_')
    await page.screenshot({ path: 'test-results/acp-permission.png' })
    await ask.getByRole('button', { name: 'Allow once' }).click()
    await expect(page.locator('[data-kind="tool"][data-tool="create_media_buy"][data-state="completed"]')).toBeVisible()
    await expect(page.locator('[data-kind="status"][data-state="end_turn"]')).toContainText('the agent finished its turn')
    await expect(page.locator('.msg[data-kind="message"][data-role="agent"]').last()).toContainText('Booked as mb_0001')
    await page.screenshot({ path: 'test-results/acp-conversation.png' })
  })

  await test.step('every message is a frame', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.getByText('session/request_permission').first()).toBeVisible()
    await page.screenshot({ path: 'test-results/acp-frames.png' })
  })
})

test('replay the demo media-buying session MCP vs ACP: the same agent, turn by turn, through both faces', async ({ page, host }) => {
  await page.goto(host.url)
  await page
    .getByRole('button', { name: /Replay/ })
    .first()
    .click()
  await page.locator('[data-recording="media-buying"]').click()
  await expect(page.getByTestId('replay-turns').locator('[data-turn]')).toHaveCount(4)
  await page.getByLabel('Target A').selectOption('demo:tools')
  await page.getByLabel('Target B').selectOption('demo:acp')
  await page.getByRole('button', { name: 'Run all' }).click()
  await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 30_000 })
  await expect(page.getByTestId('parity-summary')).toContainText('4 same')
  await page.screenshot({ path: 'test-results/acp-replay-mcp-vs-acp.png' })
  await page.getByRole('button', { name: 'Conversations side by side' }).click()
  const turns = page.locator('.sbs-row')
  await expect(turns).toHaveCount(4)
  await expect(turns.nth(2).locator('.sbs-cell').nth(1)).toContainText('create_media_buy')
  await page.screenshot({ path: 'test-results/acp-side-by-side.png' })
})

test('compare the ACP face under minimal and hinted: the hint honoured, in what it exposed and what it did', async ({ page, host }) => {
  await page.goto(host.url)
  await page
    .getByRole('button', { name: /Compare/ })
    .first()
    .click()
  await page.getByLabel('Target A').selectOption('demo:acp')
  await page.getByLabel('Profile A').selectOption('minimal')
  await page.getByLabel('Target B').selectOption('demo:acp')
  await page.getByLabel('Profile B').selectOption('hinted')
  await page.getByLabel('Prompt for ACP sides').fill('Find video for a launch')
  await page.getByRole('button', { name: 'Compare', exact: true }).click()
  const table = page.locator('main, section').filter({ hasText: 'forecast_delivery' }).last()
  await expect(table).toContainText('preview_creative', { timeout: 30_000 })
  await expect(page.getByText('only in B').first()).toBeVisible()
  await page.screenshot({ path: 'test-results/acp-compare-hint.png', fullPage: true })
})

test('add an ACP agent in the editor: command, workspace, an MCP server to hand it; saving approves it and it connects with files offered', async ({
  page,
  host,
}) => {
  const workspace = mkdtempSync(join(tmpdir(), 'parallax-e2e-acp-'))
  try {
    await page.goto(host.url)
    await page.getByRole('button', { name: '+ Add server' }).click()
    await page.getByRole('button', { name: 'ACP agent' }).click()
    await page.locator('#t-name').fill('Stable fixture agent')
    await page.locator('#t-cmd').fill(STABLE_AGENT)
    await page.locator('#t-workspace').fill(workspace)
    // The user's MCP targets (the demo servers too) can be handed to the agent in session/new.
    await page.getByTestId('acp-mcp-servers').getByLabel('Demo prompt library').check()
    await page.screenshot({ path: 'test-results/acp-editor.png' })
    await page.getByRole('button', { name: 'Save and connect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText(/connected/, { timeout: 30_000 })
    const handshake = page.getByTestId('acp-handshake')
    await expect(handshake).toContainText('read and write in')
    await expect(handshake).toContainText('stable-fixture')
    await expect(handshake).toContainText('Demo prompt library (stdio)')
    await page.screenshot({ path: 'test-results/acp-editor-connected.png' })
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
})
