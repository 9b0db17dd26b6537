import { defineConfig } from '@playwright/test'
import { CHROMIUM_LAUNCH } from '../bench/chromium'

export default defineConfig({
  testDir: 'e2e',
  outputDir: '../test-results/e2e-artifacts',
  workers: 1, // two cores: the web host, the demo servers and Chromium share them
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  use: { launchOptions: CHROMIUM_LAUNCH, viewport: { width: 1360, height: 820 }, trace: 'retain-on-failure' },
  projects: [
    { name: 'web', testIgnore: /electron\.spec\.ts/ },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
})
