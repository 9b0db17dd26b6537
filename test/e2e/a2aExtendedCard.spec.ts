import { MediaSalesExecutor } from '../../shared/demo/a2aAgent'
import { startExtendedCardAgent } from '../fixtures/a2aAgents'
import { expect, test } from './webHostProcess'
import { addAndConnect } from './flows'

test('the authenticated extended card shows beside the public one, with what differs, once the target has credentials for it', async ({
  page,
  host,
}) => {
  const agent = await startExtendedCardAgent('e2e-buyer-token', new MediaSalesExecutor())
  try {
    await page.goto(host.url)
    await test.step('without headers: the card offers one, and the page says how to get it', async () => {
      await addAndConnect(page, { name: 'buyer agent', a2aUrl: agent.url })
      await page.getByRole('tab', { name: /Agent card/ }).click()
      const extended = page.getByTestId('extended-card')
      await expect(extended).toHaveAttribute('data-status', 'skipped')
      await expect(extended).toContainText('no headers (credentials)')
    })
    await test.step('with an Authorization header: fetched, and the differences listed', async () => {
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      await page.locator('#t-headers').fill('Authorization: Bearer e2e-buyer-token')
      await page.getByRole('button', { name: /^Save and (re)?connect$/ }).click()
      const extended = page.getByTestId('extended-card')
      await expect(extended).toHaveAttribute('data-status', 'called', { timeout: 20_000 })
      await expect(extended).toContainText('2 differences from the public card')
      const diff = page.getByTestId('extended-card-diff')
      await expect(diff).toContainText('/skills/6')
      await expect(diff).toContainText('premium_inventory')
      await expect(diff).toContainText('/description')
      await expect(page.getByTestId('agent-card')).not.toContainText('e2e-buyer-token')
      await page.screenshot({ path: 'test-results/a2a-extended-card.png', fullPage: true })
    })
  } finally {
    await agent.close()
  }
})
