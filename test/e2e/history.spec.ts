import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { openApprovedTarget, openUiClient, waitConnected } from '../../web/client'
import { fixtureTarget } from '../fixtures/targets'
import { expect, startWebHostProcess, test, type RunningWebHost } from './webHostProcess'

// Sessions outlive the app: a session with a server, the web host stopped, a new one started on the same data
// folder. The target's History lists the session; it opens read-only with its frames, log and conversation;
// a part of it is exported into the recordings (and is there in Replay); it is deleted; the history's size is
// bounded by a setting.

const dirs: string[] = []
const hosts: RunningWebHost[] = []
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function hostOn(dataDir: string): Promise<RunningWebHost> {
  const host = await startWebHostProcess({ dataDir })
  hosts.push(host)
  return host
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const history = (page: Page) => page.getByTestId('history')

test('a session kept before a restart is listed, opens read-only with every view, exports a part into Replay, and is deleted', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-history-'))
  dirs.push(dataDir)
  let split = 0
  let targetId = ''

  await test.step('a session before the restart: two calls, then, a few seconds later, three more', async () => {
    const host = await hostOn(dataDir)
    const ui = await openUiClient(host)
    const { id, ...target } = fixtureTarget('serverLogs')
    void id
    const opened = await openApprovedTarget(ui, { ...target, name: 'server logs', options: { keepaliveIntervalMs: 3_600_000 } })
    targetId = opened.targetId
    await waitConnected(ui, opened.connectionId)
    const log = (text: string) =>
      ui.invoke('tools.call', { connectionId: opened.connectionId, tool: 'log', arguments: { level: 'info', logger: 'db', data: text } })
    for (const text of ['before one', 'before two']) await log(text)
    await sleep(1200)
    split = Math.ceil(Date.now() / 1000) * 1000 // the next whole second: what the time inputs can say
    await sleep(split - Date.now() + 1100)
    for (const text of ['after one', 'after two', 'after three']) await log(text)
    await ui.invoke('connections.close', { connectionId: opened.connectionId })
    await ui.close()
    await host.stop()
  })

  const host = await hostOn(dataDir)
  await page.goto(host.url)
  await page.locator(`button[data-target="${targetId}"]`).click()

  await test.step('after the restart, the target’s History lists the session: when, how long, its events, how it ended', async () => {
    const rows = history(page).locator('tbody tr')
    await expect(rows).toHaveCount(1)
    await expect(rows).toContainText(/today \d\d:\d\d:\d\d/)
    await expect(rows).toContainText('closed')
    await page.screenshot({ path: 'test-results/history-list.png' })
  })

  await test.step('Open shows it read-only: said so, its frames, log and conversation, nothing that sends', async () => {
    await history(page).getByRole('button', { name: 'Open' }).click()
    await expect(page.getByTestId('past-session')).toHaveText(/^Past session · ended \d\d:\d\d:\d\d · [\d,]+ events$/)
    await expect(page.getByRole('note')).toContainText('Read-only')
    await expect(page.getByRole('tab')).toHaveText([
      /Handshake/,
      /Discovery/,
      /Catalog/,
      /Conversation/,
      /Keepalive/,
      /Frames/,
      /Log/,
      /Timeline/,
    ])

    await page.getByRole('tab', { name: /Frames/ }).click()
    const calls = page.getByRole('listbox', { name: 'Frames' }).locator('[data-method="tools/call"][data-direction="out"]')
    await expect(calls).toHaveCount(5)
    await calls.last().click()
    await expect(page.getByLabel('Frame detail')).toContainText('"after three"')
    await expect(page.getByTestId('resend')).toHaveCount(0) // a live session's request offers Resend here

    await page.getByRole('tab', { name: /Log/ }).click()
    await expect(page.getByTestId('log').locator('.log-row', { hasText: 'after two' })).toBeVisible()
    await expect(page.getByLabel('Level the server sends (logging/setLevel)')).toHaveCount(0)

    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(5)
    await expect(page.getByRole('button', { name: 'Call' })).toHaveCount(0)
    await page.screenshot({ path: 'test-results/history-past-session.png' })

    // Its Timeline: the five calls on the axis, read from what was kept.
    await page.getByRole('tab', { name: /Timeline/ }).click()
    await expect(page.getByTestId('latency-panel').locator('.latency-row[data-method="tools/call"]')).toContainText('×5')
    await expect
      .poll(() => page.getByTestId('timeline-canvas').evaluate((c: HTMLCanvasElement) => Number(c.dataset.spans)))
      .toBeGreaterThan(5)
    await page.screenshot({ path: 'test-results/history-past-timeline.png' })
  })

  await test.step('Export a time range: only what happened in it goes into the recording, which Replay then shows', async () => {
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export the session as a recording' })
    await dialog.getByLabel('Recording name').fill('after the split')
    await dialog.getByText('Only what happened between').click()
    await expect(dialog.getByLabel('From')).not.toHaveValue('')
    await dialog.getByLabel('From').fill(localInput(split))
    await dialog.getByRole('button', { name: 'Export' }).click()
    const toast = page.getByRole('status')
    await expect(toast).toContainText('Saved "after the split" to the recordings')
    await toast.getByRole('button', { name: 'Open in Replay' }).click()
    await expect(page.locator('.recording.selected [data-recording="after the split"]')).toBeVisible()
    const ui = await openUiClient(host)
    const loaded = await ui.invoke('recordings.load', { name: 'after the split' })
    await ui.close()
    expect(loaded.turns.map((t) => JSON.stringify(t.turn))).toEqual([
      expect.stringContaining('after one'),
      expect.stringContaining('after two'),
      expect.stringContaining('after three'),
    ])
  })

  await test.step('Delete asks first, then the session is gone from History', async () => {
    await page.locator(`button[data-target="${targetId}"]`).click()
    await history(page).getByRole('button', { name: 'Delete' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Delete this session?' })
    await expect(ask).toContainText('removed from disk')
    await ask.getByRole('button', { name: 'Delete' }).click()
    await expect(history(page)).toContainText('No sessions kept yet')
    await page.screenshot({ path: 'test-results/history-empty.png' })
  })
})

test('the history’s size is shown and bounded by a setting, from History and from the command palette', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-history-'))
  dirs.push(dataDir)
  const host = await hostOn(dataDir)
  await page.goto(host.url)
  await page.locator('.welcome-demo', { hasText: 'Tools:' }).first().getByRole('button', { name: 'Open' }).click()
  await page.getByRole('tab', { name: 'History' }).click()
  await expect(history(page).locator('tbody tr')).toHaveCount(1)
  await expect(history(page).locator('tbody tr')).toContainText('running')
  await expect(history(page).getByRole('button', { name: 'Delete' })).toBeDisabled()

  await history(page).getByRole('button', { name: 'History settings…' }).click()
  const settings = page.getByRole('dialog', { name: 'Session history' })
  await expect(settings).toContainText(/[\d.]+ (KB|MB) of 4\.00 GB used/)
  await settings.getByLabel('History limit in GB').fill('1.5')
  await settings.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status')).toContainText('History size set')
  await page.screenshot({ path: 'test-results/history-running.png' })

  await page.keyboard.press('Control+k')
  await page.getByRole('combobox', { name: 'Command' }).fill('history settings')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Session history' })).toContainText('of 1.50 GB used')
  const ui = await openUiClient(host)
  expect((await ui.invoke('sessions.retention', {})).bytes).toBe(1.5 * 1024 ** 3)
  await ui.close()
})

/** A time as the dialog's time inputs take it: local, to the second. */
function localInput(ts: number): string {
  const d = new Date(ts)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}
