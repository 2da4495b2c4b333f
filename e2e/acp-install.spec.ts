import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { packFakeAgent, TarballServer } from '../src-main/testing/agent-packages';
import { CairnHost, freePort } from './cairn-host';
import { expect, test as base } from './fixtures';

/**
 * Installing an ACP agent from Settings and from a session that failed for want of it, and one the ACP
 * registry lists. npm installs stand-ins for Claude's pinned package (its name and version) and for a
 * registry npm agent from a loopback server, which also serves the registry: offline.
 */
/** The registry the loopback server serves: a preset's agent, an npm agent, and a downloaded program. */
const REGISTRY = {
  version: '1.0.0',
  agents: [
    {
      id: 'claude-code-acp',
      name: 'Claude Code',
      version: '0.16.0',
      description: 'ACP wrapper for Anthropic’s Claude',
      license: 'proprietary',
      distribution: { npx: { package: '@zed-industries/claude-code-acp@0.16.0' } },
    },
    {
      id: 'fake-agent',
      name: 'Fake Agent',
      version: '1.2.3',
      description: 'A stand-in npm agent',
      repository: 'https://example.test/fake-agent',
      license: 'MIT',
      distribution: { npx: { package: '@cairn-test/fake-acp@1.2.3', args: ['--acp'] } },
    },
    {
      id: 'binary-agent',
      name: 'Binary Agent',
      version: '2.0.0',
      description: 'A downloaded program',
      distribution: {
        binary: { 'linux-x86_64': { archive: 'https://example.test/b-2.0.0.tar.gz', cmd: './binary-agent' } },
      },
    },
    { id: 'Not valid', name: '' },
  ],
  extensions: [],
};

const test = base.extend<{ cairn: CairnHost; packages: TarballServer }>({
  // eslint-disable-next-line no-empty-pattern
  packages: async ({}, use) => {
    const packed = packFakeAgent('@agentclientprotocol/claude-agent-acp', '0.101.0', 'claude-agent-acp');
    const registryAgent = packFakeAgent('@cairn-test/fake-acp', '1.2.3', 'fake-acp');
    copyFileSync(registryAgent.tarball, join(packed.folder, basename(registryAgent.tarball)));
    writeFileSync(join(packed.folder, 'registry.json'), JSON.stringify(REGISTRY));
    const server = await TarballServer.start(packed.folder);
    await use(server);
    await server.close();
    rmSync(join(packed.folder, '..'), { recursive: true, force: true });
    rmSync(join(registryAgent.folder, '..'), { recursive: true, force: true });
  },
  cairn: async ({ packages }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-e2e-install-'));
    const host = new CairnHost(dataDir, randomBytes(12).toString('base64url'), await freePort(), {
      CAIRN_ACP_INSTALL_SOURCE: packages.url,
      CAIRN_ACP_REGISTRY_URL: `${packages.url}/registry.json`,
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

test('an agent that is not installed: Settings says so, a session on it fails with Install, npm’s progress shows, and it is installed; the ACP registry’s npm agent installs and is added', async ({
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

  // Agent discovery: the ACP registry's list, shipped with Cairn until refreshed from the (loopback) registry.
  await settings.getByRole('button', { name: 'Add connection' }).click();
  await settings.getByRole('radio', { name: /ACP agent/ }).check();
  const registry = settings.getByTestId('acp-registry');
  await registry.getByText(/agents from the ACP registry/).click();
  await registry.getByRole('button', { name: 'Refresh' }).click();
  await expect(registry.getByTestId('acp-registry-source')).toHaveAttribute('data-source', 'network');
  await expect(registry.getByTestId('acp-registry-source')).toHaveText(
    /^Agent list from .+ \(1 malformed entry left out\)$/,
  );
  await expect(registry.getByTestId('acp-registry-agent')).toHaveCount(3);
  const binary = registry.getByTestId('acp-registry-agent').filter({ hasText: 'Binary Agent' });
  await expect(binary.getByTestId('acp-registry-manual')).toContainText('Cairn cannot install downloaded programs yet');
  // The registry's Claude is Cairn's preset: chosen, not installed from the registry's package.
  await settings.getByRole('radio', { name: /^Custom/ }).check();
  await registry
    .getByTestId('acp-registry-agent')
    .filter({ hasText: 'Claude Code' })
    .getByRole('button', { name: 'Use Claude' })
    .click();
  await expect(settings.getByRole('radio', { name: /^Claude/ })).toBeChecked();

  // An npm agent of the registry installs with the same installer, then is added as a custom command.
  const fake = registry.getByTestId('acp-registry-agent').filter({ hasText: 'Fake Agent' });
  await expect(fake).toContainText('1.2.3 · MIT');
  await expect(fake.getByRole('link', { name: 'Repository' })).toHaveAttribute(
    'href',
    'https://example.test/fake-agent',
  );
  await fake.getByRole('button', { name: 'Install' }).click();
  await expect(fake.getByTestId('acp-registry-install')).toHaveAttribute('data-status', 'installed', {
    timeout: 90_000,
  });
  await expect(fake.getByTestId('acp-registry-install')).toHaveText('Installed 1.2.3');
  await page.screenshot({ path: join(artifacts, 'acp-registry.png') });
  await fake.getByRole('button', { name: 'Use Fake Agent' }).click();
  await expect(settings.getByRole('radio', { name: /^Custom/ })).toBeChecked();
  const program = join(cairn.dataDir, 'agents', 'node_modules', '.bin', 'fake-acp');
  await expect(settings.getByRole('textbox', { name: 'Agent command' })).toHaveValue(`${program} --acp`);
  await settings
    .getByRole('form', { name: 'Add a connection' })
    .getByRole('button', { name: 'Add connection' })
    .click();
  await expect(settings.getByTestId('connection-row').filter({ hasText: 'Fake Agent' })).toHaveCount(1);
  const added = (await cairn.call('connection.list', {})).connections.find((item) => item.name === 'Fake Agent');
  expect(added?.acpAgent).toMatchObject({ command: program, args: ['--acp'] });
});
