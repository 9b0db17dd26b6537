import { defineConfig } from '@playwright/test'

const chromium = {
  executablePath: process.env.PARALLAX_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: '../test-results/e2e-artifacts',
  workers: 1, // two cores: the web host, the demo servers and Chromium share them
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  use: { launchOptions: chromium, viewport: { width: 1360, height: 820 }, trace: 'retain-on-failure' },
  projects: [
    { name: 'web', testIgnore: /electron\.spec\.ts/ },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
})
