import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTapHost, type TapHost } from '../fixtures/tapHosts'
import { expect, startWebHostProcess, test } from './webHostProcess'

// A host runs its server through `parallax tap` with the web host's data folder: the running app shows the
// session live under Watched sessions, with what makes it different — observed, the host as it named itself,
// the command the tap runs, the handshake as the host offered it, a finding about the host — and nothing that
// would send into it.

const hosts: TapHost[] = []
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()))
})

test('a tapped session shows live in the app: observed, its host, its frames and handshake, a finding about the host, no call controls', async ({
  page,
  host,
}) => {
  test.setTimeout(90_000)
  await page.goto(host.url)

  await test.step('before any tap, the sidebar says how to watch a host', async () => {
    await expect(page.getByTestId('watch-hint')).toContainText('parallax tap -- COMMAND')
    await expect(page.getByTestId('watch-hint')).toContainText('parallax tap install --host NAME')
  })

  const tapped = startTapHost(host.dataDir)
  hosts.push(tapped)
  const ready = await tapped.ready
  expect(ready.tools).toEqual(['get_products'])

  const row = page.locator('[data-observed]')
  await test.step('the session appears live under Watched sessions, with its host', async () => {
    await expect(row).toHaveCount(1, { timeout: 15_000 })
    await expect(row).toContainText('fields')
    await expect(row).toContainText('live · fixture-host 4.2.0')
    await row.click()
  })

  await test.step('its page: observed · tap, the host and the command, said to be read-only, a host finding', async () => {
    await expect(page.getByTestId('observed-badge')).toHaveText('observed · tap')
    await expect(page.getByTestId('observed-host')).toContainText('fixture-host 4.2.0')
    await expect(page.locator('.page-sub')).toContainText('protocolFieldTool.ts')
    await expect(page.getByTestId('observed-note')).toContainText('Parallax sends nothing into it')
    await expect(page.getByTestId('connection-state')).toContainText('connected · live')
    await expect(page.getByTestId('host-findings')).toContainText('protocol field "adcp_version" sent inside the domain arguments')
    await expect(page.getByRole('tab')).toHaveText([
      /Handshake/,
      /Discovery/,
      /Catalog/,
      /Conversation/,
      /Keepalive/,
      /Frames/,
      /Log/,
      /History/,
      /Timeline/,
    ])
  })

  await test.step('the handshake is the host’s', async () => {
    await page.getByRole('tab', { name: /Handshake/ }).click()
    await expect(page.getByRole('heading', { name: 'Offered by the host' })).toBeVisible()
    await expect(page.getByText("The host's capabilities")).toBeVisible()
    await expect(page.getByTestId('handshake-client')).toHaveText('fixture-host 4.2.0')
    await expect(page.getByText('Client offered')).toHaveCount(0)
  })

  await test.step('its frames, growing as the host goes on; nothing offers to send', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    const frames = page.getByRole('listbox', { name: 'Frames' })
    await expect(frames.locator('[data-method="tools/call"][data-direction="out"]')).toHaveCount(1)
    await expect(frames.locator('[data-method="ping"]')).toHaveCount(0)
    await tapped.ping()
    await expect(frames.locator('[data-method="ping"]')).toHaveCount(2)
    await frames.locator('[data-method="tools/call"][data-direction="out"]').click()
    await expect(page.getByLabel('Frame detail')).toContainText('"adcp_version"')
    await expect(page.getByTestId('resend')).toHaveCount(0)

    await page.getByRole('tab', { name: /Catalog/ }).click()
    await expect(page.getByTestId('catalog')).toContainText('get_products')
    await expect(page.getByRole('button', { name: 'Call' })).toHaveCount(0)
    await page.getByRole('tab', { name: /Conversation/ }).click()
    await expect(page.locator('[data-kind="result"]')).toHaveCount(1)
    await expect(page.getByRole('button', { name: /^(Call|Send)/ })).toHaveCount(0)
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.screenshot({ path: 'test-results/tap-live.png' })
    await page.getByRole('tab', { name: /Handshake/ }).click()
    await page.screenshot({ path: 'test-results/tap-handshake.png' })
  })

  await test.step('after a reload (the backlog), the page is as it was: the host finding, marked as the host’s in the Log', async () => {
    await page.reload()
    await expect(page.getByTestId('observed-badge')).toHaveText('observed · tap')
    await expect(page.getByTestId('host-findings')).toContainText('protocol field "adcp_version" sent inside the domain arguments')
    await page.getByRole('tab', { name: /Log/ }).click()
    const finding = page.getByTestId('log').locator('.log-row.oddity')
    await expect(finding.locator('.oddity-mark')).toHaveText('the host')
    await expect(finding).toContainText('adcp_version')
  })

  await test.step('History lists the tap’s own session, with its host and "tap"', async () => {
    await page.getByRole('tab', { name: /History/ }).click()
    const rows = page.getByTestId('history').locator('tbody tr')
    await expect(rows).toHaveCount(1)
    await expect(rows).toContainText('observed · tap · fixture-host 4.2.0')
    await expect(rows).toContainText('running')
  })

  await test.step('when the host closes, the session ends in the app', async () => {
    await tapped.close()
    await expect(page.getByTestId('connection-state')).toHaveText('closed', { timeout: 15_000 })
    await expect(row).toContainText('ended · fixture-host 4.2.0')
    await page.screenshot({ path: 'test-results/tap-ended.png' })
  })
})

test('a session tapped while no app ran is there when the app opens: under Watched sessions, read-only, the host’s', async ({ page }) => {
  test.setTimeout(90_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-tap-later-'))
  try {
    const tapped = startTapHost(dataDir)
    hosts.push(tapped)
    await tapped.ready
    await tapped.close()

    const host = await startWebHostProcess({ dataDir })
    try {
      await page.goto(host.url)
      const past = page.locator('[data-past-observed]')
      await expect(past).toHaveCount(1)
      await expect(past).toContainText('fields')
      await expect(past).toContainText('fixture-host 4.2.0')
      await past.click()
      await expect(page.getByTestId('past-session')).toContainText('Past session · ended')
      await expect(page.locator('.page-sub')).toContainText('observed · tap · fixture-host 4.2.0')
      await page.getByRole('tab', { name: /Handshake/ }).click()
      await expect(page.getByRole('heading', { name: 'Offered by the host' })).toBeVisible()
      await page.getByRole('tab', { name: /Log/ }).click()
      await expect(page.getByTestId('log')).toContainText('protocol field "adcp_version"')
      await page.screenshot({ path: 'test-results/tap-later.png' })
    } finally {
      await host.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
