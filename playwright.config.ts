import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the real renderer in Chromium against the real headless host, a fresh data
 * directory per test. `npm run test:e2e` (scripts/e2e.mjs) picks the browser and sets CAIRN_CHROMIUM.
 */
const executablePath = process.env.CAIRN_CHROMIUM;

/**
 * Two workers by default: a journey spends most of its time waiting on its host and the page, so one
 * worker leaves a two-core machine half idle. Each worker has its own Chromium, and each test its own
 * host on its own port and data directory, so workers share nothing. CAIRN_E2E_WORKERS overrides it
 * (1 for a machine that is busy with something else).
 */
const workers = Number(process.env.CAIRN_E2E_WORKERS ?? '') || 2;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // The tests of one spec run in order in one worker; the specs are shared out between the workers.
  fullyParallel: false,
  workers,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    // DOM snapshots and the action log are kept for a failed test; the screencast is not recorded, since
    // encoding it costs about a quarter of the suite's CPU time (the failure's own screenshot is kept).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath === undefined || executablePath === '' ? {} : { executablePath }),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
});
