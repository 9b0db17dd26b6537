import { expect, test as base } from '@playwright/test'
import { startWebHostProcess, type RunningWebHost } from '../../web/launch'

export { ROOT, startWebHostProcess, type RunningWebHost } from '../../web/launch'

/** Playwright's test with a `host` fixture: a real `parallax web` of its own for each test, stopped after it. */
export const test = base.extend<{ host: RunningWebHost }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this pattern; this one needs none
  host: async ({}, use) => {
    const host = await startWebHostProcess()
    await use(host)
    await host.stop()
  },
})
export { expect }
