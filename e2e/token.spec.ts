import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess, type ServeProcess } from '../src-main/testing/serve-process';
import { freePort } from './cairn-host';

/** The headless host started with no token given, as `npm start` does: it keeps its own in the data directory. */
async function startKeptTokenHost(dataDir: string, port: number, args: readonly string[] = []): Promise<ServeProcess> {
  return startServeProcess({ dataDir, token: null, port, args, entry: 'built' });
}

async function stop(host: ServeProcess): Promise<void> {
  host.child.kill('SIGTERM');
  await host.exited;
}

test('a restarted host accepts the tab it served before; after --new-token the tab shows one message saying what to do', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-token-'));
  const port = await freePort();
  let host = await startKeptTokenHost(dataDir, port);
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sessions' }).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'New session', exact: true }).first().click();
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.fill('/stream 2 1');
    await composer.press('Enter');
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

    await stop(host);
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toBeVisible();
    host = await startKeptTokenHost(dataDir, port);
    // The same tab, never reloaded, is let in again with the token it had.
    await expect(banner).toBeHidden({ timeout: 20_000 });
    await composer.fill('/stream 3 1');
    await composer.press('Enter');
    await expect(page.getByTestId('turn-status')).toHaveCount(2);
    await expect(page.getByTestId('turn-status').last()).toHaveAttribute('data-status', 'completed');

    await stop(host);
    await expect(banner).toBeVisible();
    host = await startKeptTokenHost(dataDir, port, ['--new-token']);
    await expect(banner).toContainText('Open the address it printed, ending in #token=…', { timeout: 20_000 });
    await expect(banner).toContainText('host-token file of its data directory');
    // One message: nothing on the page says the host cannot be reached, which would contradict it.
    await expect(page.getByText(/not reachable/)).toHaveCount(0);
    await expect(page.locator('.composer-hint')).toHaveText('Not connected: see the notice at the top');
    await composer.fill('still here');
    await composer.press('Enter');
    await expect(page.getByTestId('composer-notice')).toHaveText(
      'Not done: this tab is not connected to Cairn — see the notice at the top. Your message stays here.',
    );
    await expect(page.getByText(/not reachable/)).toHaveCount(0);

    // The new address in the same tab connects again.
    await page.goto(host.url);
    await expect(page.getByTestId('session-row')).toHaveCount(1);
    await expect(banner).toBeHidden();
  } finally {
    await stop(host);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
