import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packFakeAgent, TarballServer } from '../src-main/testing/agent-packages';
import { CairnHost, freePort } from './cairn-host';
import { expect, test as base } from './fixtures';

/**
 * Installing an ACP agent from Settings and from a session that failed for want of it. npm installs a
 * stand-in for Claude's pinned package (its name and version) from a loopback server: offline.
 */
const test = base.extend<{ cairn: CairnHost; packages: TarballServer }>({
  // eslint-disable-next-line no-empty-pattern
  packages: async ({}, use) => {
    const packed = packFakeAgent('@agentclientprotocol/claude-agent-acp', '0.101.0', 'claude-agent-acp');
    const server = await TarballServer.start(packed.folder);
    await use(server);
    await server.close();
    rmSync(join(packed.folder, '..'), { recursive: true, force: true });
  },
  cairn: async ({ packages }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-install-'));
    const host = new CairnHost(dataDir, randomBytes(12).toString('base64url'), await freePort(), {
      CAIRN_ACP_INSTALL_SOURCE: packages.url,
    });
    await host.start();
    try {
      await use(host);
    } finally {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

test('an agent that is not installed: Settings says so, a session on it fails with Install, npm’s progress shows, and it is installed', async ({
  page,
  cairn,
  packages,
}) => {
  // npm starts and installs on a loaded machine in several seconds.
  test.setTimeout(180_000);
  const artifacts = join(process.cwd(), 'e2e-artifacts');
  mkdirSync(artifacts, { recursive: true });
  await cairn.open(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /ACP agent/ }).check();
  const formInstall = settings.getByTestId('acp-install');
  await expect(formInstall).toHaveAttribute('data-status', 'not_installed');
  await expect(formInstall).toContainText('Not installed — Install (≈360 MB)');
  await settings.getByRole('textbox', { name: /API key/ }).fill('sk-ant-test');
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  const row = settings.getByTestId('connection-row').filter({ hasText: 'Claude' });
  await expect(row.getByTestId('connection-status')).toHaveText('Not installed');
  await page.keyboard.press('Escape');

  const { connections } = await cairn.call('connection.list', {});
  const claude = connections.find((connection) => connection.acpAgent?.preset?.kind === 'claude');
  await cairn.call('session.create', { title: 'Claude session', connectionId: claude?.connectionId ?? '' });
  await page.getByTestId('session-row').filter({ hasText: 'Claude session' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('hello');
  await composer.press('Enter');
  const failed = page.getByTestId('turn-status').last();
  await expect(failed).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(failed).toContainText('The agent is not installed');
  await expect(failed).toContainText('Claude is not installed.');

  // npm's request for the package waits at the server: the install shows as running, with npm's command line.
  packages.hold = true;
  await failed.getByRole('button', { name: 'Install (≈360 MB)' }).click();
  const sessionInstall = failed.getByTestId('acp-install');
  await expect(sessionInstall).toHaveAttribute('data-status', 'installing');
  await expect(sessionInstall.getByTestId('acp-install-output')).toContainText('npm install --prefix');
  await expect(sessionInstall.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect.poll(() => packages.heldOpen, { timeout: 60_000 }).toBeGreaterThan(0);
  await page.screenshot({ path: join(artifacts, 'acp-install-progress.png') });
  packages.release();
  await expect(sessionInstall).toHaveAttribute('data-status', 'installed', { timeout: 90_000 });
  await expect(sessionInstall).toHaveText('Installed 0.101.0');

  // The record is the host's: after a reload Settings shows it installed, and the row no longer says otherwise.
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await settings.getByTestId('connection-row').filter({ hasText: 'Claude' }).click();
  await expect(settings.getByTestId('acp-install')).toHaveText('Installed 0.101.0');
  await expect(settings.getByTestId('connection-row').filter({ hasText: 'Claude' })).not.toContainText('Not installed');
  await page.screenshot({ path: join(artifacts, 'acp-install-settings.png') });
});
