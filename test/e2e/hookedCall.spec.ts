import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, ROOT, test } from './webHostProcess'
import { openDemo } from './flows'

test('a hooked call: raw, hooked and their diff, both validations and the context echo', async ({ page, host }) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  await page.getByRole('tab', { name: /Calls/ }).click()

  const shipped = join(ROOT, 'shared', 'demo', 'hooks', 'fill-buying-mode.json')
  await test.step('the path field’s example is the shipped example’s real path, a file that exists', async () => {
    await expect(page.getByLabel('Hooks file')).toHaveAttribute('placeholder', `path to a hooks file (.json, .js, .ts), e.g. ${shipped}`)
    expect(existsSync(shipped)).toBe(true)
  })

  await test.step('Browse… lists the shipped examples; one click loads one', async () => {
    await page.getByRole('button', { name: 'Browse…' }).click()
    const files = page.getByRole('group', { name: 'Hooks files' })
    await expect(files.getByRole('button')).toContainText(['fill-buying-mode.json', 'media-sales-hooks.mjs'])
    await expect(files).toContainText('Loaded lately')
    await expect(files.getByRole('button', { name: 'Choose a file…' })).toHaveCount(0) // the web host has no file dialog
    await expect(files).toContainText('a web page cannot read a file’s path from the browser’s file picker')
    await page.screenshot({ path: 'test-results/hooks-browse.png' })
    await files.getByRole('button', { name: /fill-buying-mode\.json/ }).click()
    await expect(page.getByTestId('hooks-bar')).toContainText('(declarative) for get_products')
    await expect(page.getByLabel('Hooks file')).toHaveValue(shipped)
    await expect(files).toHaveCount(0)
  })

  await test.step('call get_products without buying_mode, as a client written for AdCP 2.x would', async () => {
    await page.getByLabel('Tool to call').selectOption('get_products')
    await page.locator('#arg-brief').fill('mobile display')
    await page.locator('#arg-context').fill('{"buyer": "acme"}')
    await page.locator('#arg-context').blur()
    await page.getByRole('button', { name: 'Call', exact: true }).click()
  })

  await test.step('the three panes tell the story', async () => {
    await expect(page.getByTestId('raw-pane')).toContainText('invalid · 1')
    await expect(page.getByTestId('raw-pane')).toContainText('missing required property "buying_mode"')
    await expect(page.getByTestId('hooked-pane')).toContainText('valid')
    await expect(page.getByTestId('hooked-pane')).toContainText('"brief"')
    await expect(page.getByTestId('diff-pane')).toContainText('/buying_mode')
    await expect(page.getByTestId('context-echo')).toContainText('echoed the raw context')
    await page.screenshot({ path: 'test-results/hooked-call.png', fullPage: true })
  })

  await test.step('a hooks file that does not exist is a clear error, and the loaded hooks stay', async () => {
    await page.getByLabel('Hooks file').fill('no/such/hooks.json')
    await page.getByRole('button', { name: 'Load' }).click()
    await expect(page.getByTestId('hooks-bar')).toContainText('cannot read hooks file')
    await expect(page.getByTestId('hooks-bar')).toContainText('fill-buying-mode.json')
  })

  await test.step('a file of the user’s, once loaded, is offered by Browse… under Loaded lately', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-hooks-'))
    try {
      const mine = join(dir, 'wholesale.json')
      writeFileSync(mine, JSON.stringify({ get_products: { defaults: { buying_mode: 'wholesale' } } }))
      await page.getByLabel('Hooks file').fill(mine)
      await page.getByRole('button', { name: 'Load' }).click()
      await expect(page.getByTestId('hooks-bar')).toContainText('wholesale.json (declarative)')
      await page.getByRole('button', { name: 'Browse…' }).click()
      const files = page.getByRole('group', { name: 'Hooks files' })
      await expect(files.getByRole('button', { name: mine })).toBeVisible()
      await files.getByRole('button', { name: /fill-buying-mode\.json/ }).click()
      await expect(page.getByTestId('hooks-bar')).toContainText('fill-buying-mode.json (declarative)')
      await page.getByRole('button', { name: 'Browse…' }).click()
      await files.getByRole('button', { name: mine }).click()
      await expect(page.getByTestId('hooks-bar')).toContainText('wholesale.json (declarative)')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
