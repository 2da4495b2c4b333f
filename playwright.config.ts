import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the real renderer in Chromium against the real headless host, a fresh data
 * directory per test. `npm run test:e2e` (scripts/e2e.mjs) picks the browser and sets CAIRN_CHROMIUM.
 */
const executablePath = process.env.CAIRN_CHROMIUM;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Two cores: one test at a time keeps the host, Chromium and timings honest.
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath === undefined || executablePath === '' ? {} : { executablePath }),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
    },
  },
});
