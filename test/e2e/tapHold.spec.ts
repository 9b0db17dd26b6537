import { WrittenTap } from '../fixtures/tapSession'
import { expect, test } from './webHostProcess'

// Hold in flight from the app: the user turns breakpoints on for an observed session, and the app tells the tap
// (its control.jsonl); while the tap says it holds, a banner says the host waits; each held message is released,
// edited (invalid JSON refused) and released, or dropped, with a countdown to its timeout. The tap here is the
// tap's own session writing (shared/tap) in this process, saying what it holds as the tap does.

const taps: WrittenTap[] = []
test.afterEach(() => {
  for (const tap of taps.splice(0)) tap.end()
})

test('hold in flight: off by default, turned on with a filter, a loud banner, held messages released, edited or dropped', async ({
  page,
  host,
}) => {
  test.setTimeout(60_000)
  const tap = new WrittenTap(host.dataDir)
  taps.push(tap)
  tap.handshake()
  tap.log.store.flush()
  await page.goto(host.url)
  await page.locator('[data-observed]').click()

  const panel = page.getByTestId('hold-panel')
  await test.step('off by default: no banner, the panel says every message goes on', async () => {
    await expect(panel).toContainText('off: every message goes on as it comes')
    await expect(page.getByTestId('hold-banner')).toHaveCount(0)
  })

  const breakpoints = { on: true, methods: [], tools: ['get_products'], directions: ['out'], timeoutMs: 45_000 }
  await test.step('turned on with a filter: the tap is told, and once it says so, the banner', async () => {
    await panel.getByRole('button', { name: /Hold in flight/ }).click()
    await panel.getByLabel('Tools').fill('get_products')
    await panel.getByLabel('Release after').fill('45')
    await panel.getByLabel('Hold matching messages').check()
    await expect.poll(() => tap.controlLines()).toEqual([{ breakpoints }])
    tap.hold({ state: 'breakpoints', breakpoints: breakpoints as never })
    await expect(page.getByTestId('hold-banner')).toContainText('The tap is holding messages: the host waits.')
    await expect(page.getByTestId('hold-banner')).toContainText("holding tools/call of get_products · the host's · released after 45 s")
  })

  const call = (id: number, brief: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_products', arguments: { brief } },
  })
  await test.step('a held message: its JSON, a countdown; Edit & release refuses what is not JSON, then releases the edit', async () => {
    tap.hold({
      state: 'held',
      holdId: 1,
      direction: 'out',
      method: 'tools/call',
      message: call(2, 'shoes'),
      releaseAt: Date.now() + 45_000,
    })
    tap.hold({ state: 'held', holdId: 2, direction: 'out', method: 'tools/call', message: call(3, 'hats'), releaseAt: Date.now() + 45_000 })
    const held = panel.locator('[data-hold]')
    await expect(held).toHaveCount(2)
    await expect(page.getByTestId('hold-banner')).toContainText('2 held now')
    const first = panel.locator('[data-hold="1"]')
    await expect(first).toContainText('"shoes"')
    await expect(first.getByTestId('hold-countdown')).toHaveText(/goes on as it was in (4[0-5]|3\d) s/)
    await page.screenshot({ path: 'test-results/tap-hold.png' })

    await first.getByRole('button', { name: 'Edit & release' }).click()
    const editor = first.getByLabel('The message to release (JSON)')
    await editor.fill('{"jsonrpc": "2.0", "id": 2, ')
    await expect(first).toContainText('Not JSON')
    await expect(first.getByRole('button', { name: 'Release edited' })).toBeDisabled()
    await editor.fill(JSON.stringify(call(2, 'boots')))
    await page.screenshot({ path: 'test-results/tap-hold-edit.png' })
    await first.getByRole('button', { name: 'Release edited' }).click()
    await expect.poll(() => tap.controlLines()).toEqual([{ breakpoints }, { release: 1, message: call(2, 'boots') }])
    tap.hold({ state: 'released', holdId: 1, direction: 'out', by: 'user', edited: true })
    await expect(held).toHaveCount(1)
  })

  await test.step('Drop', async () => {
    await panel.locator('[data-hold="2"]').getByRole('button', { name: 'Drop' }).click()
    await expect.poll(() => tap.controlLines().at(-1)).toEqual({ drop: 2 })
    tap.hold({ state: 'dropped', holdId: 2, direction: 'out', by: 'user' })
    await expect(panel.locator('[data-hold]')).toHaveCount(0)
  })

  await test.step('turned off: the tap is told, the banner goes once it says so', async () => {
    await panel.getByLabel('Hold matching messages').uncheck()
    await expect.poll(() => tap.controlLines().at(-1)).toEqual({ breakpoints: { ...breakpoints, on: false } })
    tap.hold({ state: 'breakpoints', breakpoints: { ...breakpoints, on: false } as never })
    await expect(page.getByTestId('hold-banner')).toHaveCount(0)
  })
})
