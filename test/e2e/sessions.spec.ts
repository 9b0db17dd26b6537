import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { parseRecording } from '../../shared/session/recording'
import { openUiClient } from '../../web/client'
import { demoServers } from '../fixtures/processes'
import { fixtureTarget } from '../fixtures/targets'
import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

// Whose connection is this, and keep what the user did: Compare and Replay never take over the user's
// session, leave no process behind, keep their results while the user goes elsewhere; recording starts
// at Record; a server that came back says so.

async function callFormats(page: Page, nameSearch: string, results: number): Promise<void> {
  await page.getByRole('tab', { name: /Conversation/ }).click()
  await page.getByLabel('Tool').selectOption('list_creative_formats')
  await page.getByLabel('Arguments (JSON)').fill(JSON.stringify({ name_search: nameSearch }))
  await page.getByRole('button', { name: 'Call' }).click()
  await expect(page.locator('[data-kind="result"]')).toHaveCount(results)
}

const sidebarButton = (page: Page, name: RegExp) => page.locator('.sidebar').getByRole('button', { name })

test('Compare on a connected target leaves the user’s page and conversation as they were; Reconnect works after it', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  await callFormats(page, 'audio', 1)

  await test.step('compare the same target under two profiles', async () => {
    await sidebarButton(page, /Compare/).click()
    await page.getByRole('button', { name: 'Compare', exact: true }).click()
    await expect(page.getByTestId('compare-catalog').locator('.compare-item.added')).toHaveCount(2, { timeout: 20_000 })
  })

  await test.step('every connection is listed with whose it is and when it opened', async () => {
    await sidebarButton(page, /Side by side/).click()
    const options = await page.getByLabel('Left connection').locator('option').allTextContents()
    expect(options[1]).toMatch(/^Demo media-sales agent · your session · \d\d:\d\d:\d\d · MCP · connected · 2 message\(s\)$/)
    expect(options[2]).toMatch(/^Demo media-sales agent · compare c1 B \(hinted\) · \d\d:\d\d:\d\d · MCP · closed · 0 message\(s\)$/)
    expect(options[3]).toMatch(/^Demo media-sales agent · compare c1 A \(minimal\) · \d\d:\d\d:\d\d · MCP · closed · 0 message\(s\)$/)
    expect(new Set(options).size).toBe(options.length)
  })

  await test.step('the target page still shows the user’s session, its conversation and its state', async () => {
    await page.locator('[data-target="demo:tools"]').click()
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
    await expect(page.locator('[data-kind="result"]')).toHaveCount(1)
    await page.screenshot({ path: 'test-results/sessions-after-compare.png' })
  })

  await test.step('Disconnect, then Reconnect opens a new session and says so', async () => {
    await page.getByRole('button', { name: 'Disconnect' }).click()
    await expect(page.getByTestId('connection-state')).toHaveText('closed')
    await page.getByRole('button', { name: 'Reconnect' }).click()
    await expect(page.getByRole('status')).toContainText(/Reconnected: new connection #\d+ \(the previous one, #1, was closed\)/, {
      timeout: 20_000,
    })
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
  })

  await test.step('Reconnect on a live session replaces it too', async () => {
    await page.getByRole('button', { name: 'Reconnect' }).click()
    await expect(page.getByRole('status')).toContainText(
      /Reconnected: new connection #\d+ \(the previous one, #\d+, was connected; it is closed now\)/,
      {
        timeout: 20_000,
      },
    )
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
  })

  await test.step('a reload of the page comes back to the user’s session', async () => {
    await page.reload()
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy', { timeout: 20_000 })
    await expect(page.getByRole('region', { name: 'Demo media-sales agent' })).toBeVisible()
    await expect.poll(() => demoServers(host.pid)).toHaveLength(1)
  })
})

test('Replay runs on its own connections, leaves no process, and its results stay through the Frames drawer and navigation', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  const sessionPid = Number((await page.getByTestId('connection-state').getAttribute('title'))?.match(/server process (\d+)/)?.[1])
  expect(sessionPid).toBeGreaterThan(0)

  await test.step('replay the demo session MCP vs A2A', async () => {
    await sidebarButton(page, /Replay/).click()
    await page.locator('[data-recording="media-buying"]').click()
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 30_000 })
    await expect(page.locator('[data-turn="4"]')).toHaveAttribute('data-status', 'differs')
    await expect.poll(() => demoServers(host.pid), { timeout: 10_000 }).toEqual([sessionPid])
  })

  await test.step('a turn’s Frames open in a drawer over the replay, on that turn’s frames only', async () => {
    await page.locator('[data-turn="4"]').getByRole('button', { name: 'Frames' }).nth(1).click()
    const drawer = page.getByTestId('frames-drawer')
    await expect(drawer).toContainText('Frames · Turn 4 · B')
    await expect(drawer).toContainText(/Demo media-sales agent \(A2A\) · replay r1 B · \d\d:\d\d:\d\d · closed/)
    const count = Number((await drawer.getByTestId('frame-count').textContent())?.match(/^\d+/)?.[0])
    expect(count).toBeGreaterThan(0)
    expect(count).toBeLessThan(12) // one turn's exchange, not the whole connection
    await drawer.getByRole('listbox', { name: 'Frames' }).getByRole('option').last().click()
    await page.screenshot({ path: 'test-results/sessions-replay-drawer.png' })
    await page.keyboard.press('Escape')
    await expect(drawer).toHaveCount(0)
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done')
    await expect(page.getByTestId('turn-diff')).toContainText('/data/media_buy_deliveries/0/pricing_model')
  })

  await test.step('the target page still shows the user’s session; back on Replay, the results are as they were', async () => {
    await page.locator('[data-target="demo:tools"]').click()
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
    await expect(page.getByTestId('other-connections')).toHaveCount(0)
    await sidebarButton(page, /Replay/).click()
    await expect(page.locator('.recording.selected [data-recording="media-buying"]')).toBeVisible()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done')
    await expect(page.getByTestId('parity-summary')).toContainText('3 same')
    await expect(page.locator('[data-turn="4"]')).toHaveAttribute('data-status', 'differs')
  })

  await test.step('kept connections stay open, are listed with their owner, and close from the target page', async () => {
    await page.getByLabel('Keep connections').check()
    await page.getByRole('button', { name: 'Run all' }).click()
    await expect(page.getByTestId('parity-summary')).toContainText('4 of 4 turn(s) · done', { timeout: 30_000 })
    await expect(page.getByTestId('close-kept')).toHaveText('Close 2 kept connections')
    await expect.poll(() => demoServers(host.pid)).toHaveLength(2)
    await page.locator('[data-target="demo:tools"]').click()
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
    const others = page.getByTestId('other-connections')
    await expect(others).toContainText(/replay r2 A · \d\d:\d\d:\d\d/)
    await page.screenshot({ path: 'test-results/sessions-kept-connections.png' })
    await others.getByRole('button', { name: 'Close it' }).click()
    await expect(others).toHaveCount(0)
    await expect.poll(() => demoServers(host.pid), { timeout: 10_000 }).toEqual([sessionPid])
  })
})

test('Record keeps only what happens from then on, shows its progress, and says what was saved with a way to replay it', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  await callFormats(page, 'audio', 1) // before Record: not part of the recording

  await page.getByRole('button', { name: '● Record' }).click()
  const status = page.getByTestId('recording-status')
  await expect(status).toHaveText(/0:0\d · \d+ events/)
  await expect(page.locator('[data-target="demo:tools"]').getByTestId('recording-mark')).toBeVisible()
  const before = Number((await status.textContent())?.match(/(\d+) events/)?.[1])
  await callFormats(page, 'pre-roll', 2)
  await expect.poll(async () => Number((await status.textContent())?.match(/(\d+) events/)?.[1])).toBeGreaterThan(before + 2)
  await page.screenshot({ path: 'test-results/sessions-recording.png' })

  await page.getByRole('button', { name: '■ Stop recording' }).click()
  const toast = page.getByRole('status')
  await expect(toast).toContainText(/Saved "Demo media-sales agent [\d-]+ [\d.]+": \d+ events, 1 turn/)
  await expect(page.locator('[data-target="demo:tools"]').getByTestId('recording-mark')).toHaveCount(0)
  const name = (await toast.textContent())!.match(/Saved "([^"]+)"/)![1]
  const events = Number((await toast.textContent())!.match(/(\d+) events/)![1])
  await page.screenshot({ path: 'test-results/sessions-recording-saved.png' })
  await toast.getByRole('button', { name: 'Open in Replay' }).click()

  await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible()
  await expect(page.locator(`.recording.selected [data-recording="${name}"]`)).toBeVisible()
  await expect(page.locator(`.recording.selected`)).toContainText(/recorded /)
  await expect(page.getByTestId('recording-date')).toContainText('1 turn(s)')
  await expect(page.getByTestId('replay-turns').locator('[data-turn]')).toHaveCount(1)
  await expect(page.getByTestId('replay-turns')).toContainText('"name_search":"pre-roll"')

  const recording = parseRecording(readFileSync(join(host.dataDir, 'recordings', `${name}.jsonl`), 'utf8'))
  expect(recording.events).toHaveLength(events)
  const started = Date.parse(recording.header!.startedAt)
  const recorded = recording.events.slice(recording.header!.context)
  expect(recorded.every((e) => e.ts >= started - 1)).toBe(true)
  expect(JSON.stringify(recorded)).not.toContain('audio')
})

test('a server that exits and is brought back by keepalive says so in the header and in a toast', async ({ page, host }) => {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-dying-'))
  try {
    // The user's own server: one that exits 300 ms after it starts, once (saved and approved as the editor does).
    const client = await openUiClient(host)
    const { origin: _origin, id: _id, ...draft } = fixtureTarget('dying', ['once', join(dir, 'died')], { reconnectBaseDelayMs: 300 })
    const saved = await client.invoke('targets.save', { ...draft, name: 'Server that dies once', approve: true })
    await client.close()

    await page.goto(host.url)
    await page.locator(`[data-target="${saved.id}"]`).click()
    await page.getByRole('button', { name: 'Connect', exact: true }).first().click()
    const notice = page.getByTestId('restart-notice')
    await expect(notice).toHaveText(
      /^restarted \d\d:\d\d:\d\d — server process exited.*A new server process: state the server kept .* may be gone/,
      {
        timeout: 20_000,
      },
    )
    await expect(page.getByRole('status')).toContainText(
      /Server that dies once restarted after "server process exited[^"]*": state the server kept/,
    )
    await expect(page.getByTestId('connection-state')).toHaveText('connected · healthy')
    await page.screenshot({ path: 'test-results/sessions-restarted.png' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
