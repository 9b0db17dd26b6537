import { expect, test } from './webHostProcess'
import { openDemo } from './flows'

test('a hooked call: raw, hooked and their diff, both validations and the context echo', async ({ page, host }) => {
  await page.goto(host.url)
  await openDemo(page, 'Tools:')
  await page.getByRole('tab', { name: /Calls/ }).click()

  await test.step('load the shipped hooks file', async () => {
    await page.getByLabel('Hooks file').fill('shared/demo/hooks/fill-buying-mode.json')
    await page.getByRole('button', { name: 'Load' }).click()
    await expect(page.getByTestId('hooks-bar')).toContainText('(declarative) for create_media_buy')
  })

  await test.step('call create_media_buy without buying_mode, as an older client would', async () => {
    await page.getByLabel('Tool to call').selectOption('create_media_buy')
    await page.locator('#arg-product_id').fill('prod_mobile_run')
    await page.locator('#arg-budget').fill('2000')
    await page.locator('#arg-context').fill('{"buyer": "acme"}')
    await page.locator('#arg-context').blur()
    await page.getByRole('button', { name: 'Call', exact: true }).click()
  })

  await test.step('the three panes tell the story', async () => {
    await expect(page.getByTestId('raw-pane')).toContainText('invalid · 1')
    await expect(page.getByTestId('raw-pane')).toContainText('missing required property "buying_mode"')
    await expect(page.getByTestId('hooked-pane')).toContainText('valid')
    await expect(page.getByTestId('hooked-pane')).toContainText('"auction"')
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
})
