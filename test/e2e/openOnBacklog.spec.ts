import { openApprovedTarget, openUiClient, waitConnected, type UiClient } from '../../web/client'
import { expect, test } from './webHostProcess'

// Opening the app on a session already under way: the page catches up on the engine's backlog (each
// connection's latest frames and log lines as rows, the counts of the rest; payloads and log texts fetched when
// shown) and shows what a page open all along shows. A session this short is held whole: its filters run in the
// page over every line. (A long one's are in longSession.spec.ts.)

/** The fixture server with log messages and progress (test/fixtures/servers/serverLogs.ts). */
const SERVER_LOGS = {
  kind: 'mcp-stdio' as const,
  command: process.execPath,
  args: ['--import', 'tsx', 'test/fixtures/servers/serverLogs.ts'],
  env: {},
}

test('the app opened on a session under way lists every frame and log line, fetches what it shows, and shows the call in flight', async ({
  page,
  host,
}) => {
  const ui: UiClient = await openUiClient(host)
  const { targetId, connectionId } = await openApprovedTarget(ui, {
    name: 'server-logs',
    spec: SERVER_LOGS,
    options: { keepaliveIntervalMs: 3_600_000 },
  })
  await waitConnected(ui, connectionId)

  await test.step('a session before the page opens: a log level asked for, 200 log messages, one at a level the spec lacks', async () => {
    await ui.invoke('connections.setLogLevel', { connectionId, level: 'debug' })
    for (let i = 0; i < 200; i++)
      await ui.invoke('tools.call', { connectionId, tool: 'log', arguments: { level: 'info', logger: 'db', data: { i } } })
    await ui.invoke('tools.call', { connectionId, tool: 'log', arguments: { level: 'loud', data: 'off the scale' } })
    await ui.waitFor((e) => e.type === 'log' && e.connectionId === connectionId && e.text === 'off the scale')
  })
  const frames = ui.of('frame', connectionId).length
  const lines = ui.of('log', connectionId).length

  await page.goto(host.url)
  await page.locator(`button[data-target="${targetId}"]`).click()

  await test.step('Frames lists every frame; one opened shows its payload, fetched from the engine', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    await expect(page.getByTestId('frame-count')).toHaveText(`${frames.toLocaleString('en-US')} frames`)
    await page.getByLabel('Filter frames by method').fill('notifications/message')
    await page.locator('[aria-label="Frames"] [role="option"]').last().click()
    await expect(page.getByLabel('Frame detail')).toContainText('"off the scale"')
    await page.getByLabel('Filter frames by method').fill('')
  })

  await test.step('Log lists every line with its text, the oddity flagged, the level agreed, and searches the texts', async () => {
    await page.getByRole('tab', { name: /Log/ }).click()
    await expect(page.getByTestId('log-count')).toHaveText(`${lines} lines`)
    const log = page.getByTestId('log')
    await expect(log.locator('.log-row', { hasText: '{"i":199}' })).toBeVisible()
    await expect(log.locator('.log-row.oddity')).toContainText('"loud"')
    await expect(page.getByLabel('Level the server sends (logging/setLevel)')).toHaveValue('debug')
    await page.getByLabel('Filter log').fill('"i":123}')
    await expect(page.getByTestId('log-count')).toHaveText(`1 of ${lines} lines`)
    await expect(log.locator('.log-row')).toHaveText([/\{"i":123\}/])
  })

  await test.step('a call in flight when the page opens shows with the progress reported so far', async () => {
    void ui.invoke('tools.call', { connectionId, tool: 'slow', arguments: { steps: 100 } }).catch(() => {})
    await ui.waitFor((e) => e.type === 'frame' && e.connectionId === connectionId && e.method === 'notifications/progress')
    await page.reload()
    await page.locator(`button[data-target="${targetId}"]`).click()
    await page.getByRole('tab', { name: /Calls/ }).click()
    const flying = page.getByTestId('in-flight')
    await expect(flying).toContainText('slow')
    await expect(flying.getByTestId('progress')).toContainText(/[1-9]\d* of 100/)
  })
  await ui.close()
})
