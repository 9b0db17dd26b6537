import { startOAuthMcpServer } from '../fixtures/oauthServers'
import { expectHealthy, openDemo } from './flows'
import { expect, test } from './webHostProcess'

test('the command palette reaches every view and action; shortcuts for the pages and Record; Escape leaves a text field', async ({
  page,
  host,
}) => {
  await page.goto(host.url)
  await expect(page.getByRole('heading', { name: 'Inspect an agent' })).toBeVisible()
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const run = async (query: string, expected: string | RegExp) => {
    await page.keyboard.press('Control+k')
    await expect(palette).toBeVisible()
    await page.keyboard.type(query)
    await expect(palette.locator('.palette-item.active')).toContainText(expected)
    await page.keyboard.press('Enter')
    await expect(palette).toHaveCount(0)
  }

  await test.step('Ctrl+K, a few letters, Enter: a target', async () => {
    await run('promlib', 'Demo prompt library')
    await expect(page.locator('.page-title')).toHaveText('Demo prompt library')
  })

  await test.step('its actions: connect, then a tab', async () => {
    await run('conn', 'Connect Demo prompt library')
    await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout: 20_000 })
    await run('frames', 'Frames')
    await expect(page.getByRole('tab', { name: /Frames/ })).toHaveAttribute('aria-selected', 'true')
  })

  await test.step('arrows choose, the list filters fuzzily, and matched letters are marked', async () => {
    await page.keyboard.press('Control+k')
    await page.keyboard.type('sbs')
    await expect(palette.locator('.palette-item').first()).toContainText('Side by side')
    await expect(palette.locator('.palette-item.active b')).not.toHaveCount(0)
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    const count = await palette.locator('.palette-item').count()
    expect(count).toBeGreaterThan(20) // targets, tabs, actions, pages, app
    for (const label of [
      'Probe now',
      'Refresh: run discovery again',
      'Record this connection',
      'Replay a recording',
      'Compare profiles or targets',
    ])
      await expect(palette.locator('.palette-item', { hasText: label })).toHaveCount(1)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect(palette.locator('.palette-item').nth(2)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.type('theme')
    await page.screenshot({ path: 'test-results/command-palette.png' })
    await page.keyboard.press('Escape')
    await expect(palette).toHaveCount(0)
  })

  await test.step('s, y and d open Side by side, Replay and Compare', async () => {
    await page.keyboard.press('s')
    await expect(page.locator('.page-title')).toHaveText(/Side by side/)
    await page.keyboard.press('y')
    await expect(page.locator('.page-title')).toHaveText(/Replay/)
    await page.keyboard.press('d')
    await expect(page.locator('.page-title')).toHaveText(/Compare/)
    await run('prompt library', 'Demo prompt library')
  })

  await test.step('Shift+R records, and stops', async () => {
    await page.keyboard.press('Shift+R')
    await expect(page.getByRole('button', { name: /Stop recording/ })).toBeVisible()
    await page.keyboard.press('Shift+R')
    await expect(page.getByRole('button', { name: '● Record' })).toBeVisible()
  })

  await test.step('Escape leaves a text field, and the keys work again', async () => {
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.keyboard.press('/')
    const filter = page.getByLabel('Filter frames by method')
    await expect(filter).toBeFocused()
    await page.keyboard.type('1')
    await expect(filter).toHaveValue('1') // typed into the field, not a tab switch
    await page.keyboard.press('Escape')
    await expect(filter).not.toBeFocused()
    await page.keyboard.press('1')
    await expect(page.getByRole('tab', { name: /Handshake/ })).toHaveAttribute('aria-selected', 'true')
  })

  await test.step('the palette opens from inside a text field too, and the shortcuts dialog lists the new keys', async () => {
    await page.getByRole('tab', { name: /Calls/ }).click()
    await page.getByRole('tab', { name: /Frames/ }).click()
    await page.getByLabel('Filter frames by method').focus()
    await run('shortcuts', 'Keyboard shortcuts')
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    for (const [keys, what] of [
      ['Ctrl K', 'command palette'],
      ['s', 'side by side'],
      ['y', 'replay a recording'],
      ['d', 'compare profiles or targets'],
      ['Shift R', 'record, or stop recording'],
      ['Esc', 'leave a text field'],
    ]) {
      await expect(dialog.locator('kbd').filter({ hasText: new RegExp(`^${keys}$`) })).toHaveCount(1)
      await expect(dialog).toContainText(what)
    }
    await page.screenshot({ path: 'test-results/shortcuts-dialog.png' })
    await page.keyboard.press('Escape')
  })
})

test('the palette and the number keys offer Auth only where there is one: an HTTP target, not a stdio server or a demo', async ({
  page,
  host,
}) => {
  const server = await startOAuthMcpServer({ byPerson: true })
  try {
    await page.goto(host.url)
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    /** The tabs the palette offers for the selected target, by id. */
    const tabsOffered = async () => {
      await page.keyboard.press('Control+k')
      await expect(palette.locator('[data-entry="tab:handshake"]')).toBeVisible()
      const ids = await palette.locator('[data-entry^="tab:"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-entry')))
      await page.keyboard.press('Escape')
      return ids
    }

    await test.step('a stdio demo server: no Auth in the palette, and 9 opens nothing', async () => {
      await openDemo(page, 'Demo prompt library')
      expect(await tabsOffered()).toEqual([
        'tab:handshake',
        'tab:discovery',
        'tab:catalog',
        'tab:conversation',
        'tab:calls',
        'tab:keepalive',
        'tab:frames',
        'tab:log',
        'tab:history',
        'tab:timeline',
      ])
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page.keyboard.press('9')
      await expect(page.getByRole('tab', { name: /Frames/ })).toHaveAttribute('aria-selected', 'true')
      await expect(page.getByRole('tab', { name: /Auth/ })).toHaveCount(0)
    })

    await test.step('the demo A2A agent, over HTTP but asking for no authorization: no Auth either', async () => {
      await page.locator('[data-target="demo:a2a"]').click()
      await page.keyboard.press('c')
      await expectHealthy(page)
      expect(await tabsOffered()).not.toContain('tab:auth')
      await expect(page.getByRole('tab', { name: /Auth/ })).toHaveCount(0)
    })

    await test.step('an MCP server over HTTP with authorization: Auth in the palette opens its Auth tab', async () => {
      await page.getByRole('button', { name: '+ Add server' }).click()
      await page.locator('#t-name').fill('protected')
      await page.getByRole('button', { name: 'MCP over HTTP' }).click()
      await page.locator('#t-url').fill(server.url)
      await page.getByRole('button', { name: 'Save and connect' }).click()
      await expect(page.getByTestId('connection-state')).toHaveText(/failed/, { timeout: 30_000 })
      expect(await tabsOffered()).toContain('tab:auth')
      await page.keyboard.press('Control+k')
      await page.keyboard.type('auth')
      await expect(palette.locator('.palette-item.active')).toContainText('Auth')
      await page.screenshot({ path: 'test-results/palette-auth.png' })
      await page.keyboard.press('Enter')
      await expect(page.getByRole('tab', { name: /Auth/ })).toHaveAttribute('aria-selected', 'true')
      await page.getByRole('tab', { name: /Frames/ }).click()
      await page.keyboard.press('9')
      await expect(page.getByRole('tab', { name: /Auth/ })).toHaveAttribute('aria-selected', 'true')
    })
  } finally {
    await server.stop()
  }
})
