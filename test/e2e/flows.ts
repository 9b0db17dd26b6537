import type { Page } from '@playwright/test'
import { expect } from './webHostProcess'
import { demoBuy } from '../fixtures/demoBuy'

/** What a person does most: steps shared by the end-to-end tests. */

/** Waits until the open connection's header says it is connected and healthy. */
export async function expectHealthy(page: Page, timeout = 20_000): Promise<void> {
  await expect(page.getByTestId('connection-state')).toHaveText(/connected · healthy/, { timeout })
}

/** Opens the built-in demo whose welcome card says `hasText`, and waits until it is healthy. */
export async function openDemo(page: Page, hasText: string): Promise<void> {
  await page.locator('.welcome-demo', { hasText }).first().getByRole('button', { name: 'Open' }).click()
  await expectHealthy(page)
}

/**
 * Adds a target in the editor (a stdio server by its command line, or an A2A agent by its URL), saves and
 * connects it, and waits until it is healthy.
 */
export async function addAndConnect(
  page: Page,
  target: { name: string } & ({ command: string } | { a2aUrl: string }),
  timeout = 30_000,
): Promise<void> {
  await page.getByRole('button', { name: '+ Add server' }).click()
  await page.locator('#t-name').fill(target.name)
  if ('command' in target) await page.locator('#t-cmd').fill(target.command)
  else {
    await page.getByRole('button', { name: 'A2A agent' }).click()
    await page.locator('#t-url').fill(target.a2aUrl)
  }
  await page.getByRole('button', { name: 'Save and connect' }).click()
  await expectHealthy(page, timeout)
}

/** An AdCP create_media_buy the demo seller accepts: prod_mobile_run at its auction CPM, for 2,000 USD. */
export const DEMO_BUY = JSON.stringify(demoBuy())
