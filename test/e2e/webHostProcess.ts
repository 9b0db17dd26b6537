import { expect, test as base } from '@playwright/test'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'

export { ROOT, startWebHostProcess, type RunningWebHost } from '../../web/launch'

/**
 * Playwright's test with a `host` fixture: a real `parallax web` of its own for each test, stopped after it.
 * Its `page` fails the test when the page threw an error (checked once the test is done).
 */
export const test = base.extend<{ host: RunningWebHost }>({
  page: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await use(page)
    expect(errors, 'errors the page threw').toEqual([])
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this pattern; this one needs none
  host: async ({}, use) => {
    const host = await startWebHostProcess()
    await use(host)
    await host.stop()
  },
})
export { expect }
