import { test as base, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnHost } from './cairn-host';

export { CairnHost };

/** A host on a fresh data directory, started. */
async function startFreshHost(): Promise<CairnHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
  const host = new CairnHost(dataDir, randomBytes(12).toString('base64url'), 0);
  await host.start();
  return host;
}

/**
 * A worker's supply of fresh hosts, one started ahead: while a test runs (mostly waiting on its page
 * and its host), the next test's host starts, and a used host is stopped and its data directory removed
 * in the background, so no test waits for a host to start or stop (about a second each on a quiet
 * machine, more on a busy one). Each test still gets a host of its own, never used before. The worker
 * waits for every stop at its end, and fails there if one failed.
 */
class HostSupply {
  private ahead: Promise<CairnHost> | null = null;
  private readonly stopping = new Set<Promise<void>>();
  private readonly failures: unknown[] = [];

  take(): Promise<CairnHost> {
    const host = this.ahead ?? startFreshHost();
    this.ahead = startFreshHost();
    // A failed start is the next test's failure (take() hands it over); until then it is not unhandled.
    this.ahead.catch(() => undefined);
    return host;
  }

  retire(host: CairnHost): void {
    const stopped = host
      .stop()
      .finally(() => rmSync(host.dataDir, { recursive: true, force: true }))
      .catch((error: unknown) => void this.failures.push(error))
      .finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
  }

  async close(): Promise<void> {
    const ahead = await this.ahead?.catch(() => null);
    this.ahead = null;
    if (ahead) this.retire(ahead);
    await Promise.all(this.stopping);
    if (this.failures.length > 0) throw this.failures[0];
  }
}

export const test = base.extend<{ cairn: CairnHost }, { hostSupply: HostSupply }>({
  hostSupply: [
    // Playwright reads a fixture's dependencies from this destructuring; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const supply = new HostSupply();
      try {
        await use(supply);
      } finally {
        await supply.close();
      }
    },
    { scope: 'worker' },
  ],
  cairn: async ({ hostSupply }, use) => {
    const host = await hostSupply.take();
    try {
      await use(host);
    } finally {
      hostSupply.retire(host);
    }
  },
});

export { expect };
