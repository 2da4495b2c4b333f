import { test as base, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost } from './cairn-host';

export { CairnHost };

export const test = base.extend<{ cairn: CairnHost }>({
  // Playwright reads a fixture's dependencies from this destructuring; this one has none.
  // eslint-disable-next-line no-empty-pattern
  cairn: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
    const host = new CairnHost(dataDir, randomBytes(12).toString('base64url'), 0);
    await host.start();
    try {
      await use(host);
    } finally {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

export { expect };
