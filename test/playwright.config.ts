import { defineConfig } from '@playwright/test'
import { CHROMIUM_LAUNCH } from '../bench/chromium'

export default defineConfig({
  testDir: 'e2e',
  outputDir: '../test-results/e2e-artifacts',
  // Two at a time: each test's web host, servers and Chromium mostly wait on one another (measured: 168 s with one, 119 s with two).
  workers: 2,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  use: { launchOptions: CHROMIUM_LAUNCH, viewport: { width: 1360, height: 820 }, trace: 'retain-on-failure' },
  projects: [
    { name: 'web', testIgnore: /electron\.spec\.ts/ },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
})
