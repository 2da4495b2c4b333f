import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AcpInstallState } from '../../../../src-shared/acp-install-model';
import { packFakeAgent, TarballServer } from '../../../testing/agent-packages';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { waitFor } from '../../../testing/wait-for';

/**
 * Installing a preset ACP agent on the person's click: the real npm installs a stand-in package
 * (Gemini CLI's name and pinned version) from a loopback server, offline.
 */

const GEMINI_DIR = ['agents', 'node_modules', '@google', 'gemini-cli'];
let packed: { folder: string; tarball: string };
let server: TarballServer;
let t: TestHost | null = null;
const dataDirs: string[] = [];

beforeAll(() => {
  packed = packFakeAgent('@google/gemini-cli', '0.61.0', 'gemini');
});
afterAll(() => rmSync(join(packed.folder, '..'), { recursive: true, force: true }));
afterEach(async () => {
  await t?.close();
  t = null;
  await server.close();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function hostServing(folder = packed.folder, installKillGraceMs?: number): Promise<TestHost> {
  server = await TarballServer.start(folder);
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-install-'));
  dataDirs.push(dataDir);
  t = await startTestHost({
    dataDir,
    acp: { installSource: server.url, ...(installKillGraceMs === undefined ? {} : { installKillGraceMs }) },
  });
  return t;
}

const installEvents = (host: TestHost): AcpInstallState[] =>
  host.events.flatMap((event) =>
    event.kind === 'acp.install.changed' && event.install.kind === 'gemini' ? [event.install] : [],
  );

const geminiOf = async (host: TestHost) =>
  (await host.call('acp.installs', {})).installs.find((install) => install.kind === 'gemini');

async function ended(host: TestHost): Promise<AcpInstallState> {
  return waitFor(
    async () => {
      const state = await geminiOf(host);
      return state !== undefined && state.status !== 'installing' ? state : null;
    },
    { timeoutMs: 90_000, intervalMs: 100, message: 'the install to end' },
  );
}

describe('installing ACP agents on demand', { timeout: 180_000 }, () => {
  it('installs the pinned package with npm, streaming its output lines, and is idempotent once installed; a new host sees it installed', async () => {
    const host = await hostServing();
    expect(await geminiOf(host)).toMatchObject({
      status: 'not_installed',
      packageSpec: '@google/gemini-cli@0.61.0',
      installedVersion: null,
    });

    const started = await host.call('acp.install', { kind: 'gemini' });
    expect(started.install.status).toBe('installing');
    // Asked again while it runs: the same install, not a second npm.
    expect((await host.call('acp.install', { kind: 'gemini' })).install.status).toBe('installing');
    const done = await ended(host);
    expect(done).toMatchObject({ status: 'installed', installedVersion: '0.61.0', location: 'data_dir', error: null });
    expect(new Set(server.requests)).toEqual(new Set(['/google-gemini-cli-0.61.0.tgz']));
    const fetches = server.requests.length;

    // npm's own lines arrived as events while it ran: its fetch of the tarball from the loopback server.
    const lines = installEvents(host).flatMap((event) => event.output);
    expect(
      lines.some(
        (line) =>
          line.startsWith('npm install --prefix') && line.includes(`${server.url}/google-gemini-cli-0.61.0.tgz`),
      ),
    ).toBe(true);
    expect(
      lines.some((line) =>
        /^npm http fetch GET 200 http:\/\/127\.0\.0\.1:\d+\/google-gemini-cli-0\.61\.0\.tgz/.test(line),
      ),
    ).toBe(true);
    expect(installEvents(host).at(-1)?.status).toBe('installed');
    expect(existsSync(join(host.dataDir, ...GEMINI_DIR, 'agent.js'))).toBe(true);

    const before = installEvents(host).length;
    expect((await host.call('acp.install', { kind: 'gemini' })).install).toMatchObject({
      status: 'installed',
      installedVersion: '0.61.0',
    });
    expect(installEvents(host).length).toBe(before);
    expect(server.requests.length).toBe(fetches);

    // The record is the disk: a new host on the same data directory finds it installed.
    const dataDir = host.dataDir;
    await host.close();
    t = await startTestHost({ dataDir });
    expect(await geminiOf(t)).toMatchObject({ status: 'installed', installedVersion: '0.61.0' });
  });

  it('a bad package fails with npm’s error, leaves nothing taken for installed, and the failure is still there after a restart', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'cairn-bad-package-'));
    dataDirs.push(bad);
    writeFileSync(join(bad, 'google-gemini-cli-0.61.0.tgz'), 'this is not a tarball');
    const host = await hostServing(bad);
    await host.call('acp.install', { kind: 'gemini' });
    const failed = await ended(host);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^npm error/m);
    expect(failed.error).toContain('TAR_BAD_ARCHIVE');
    expect(failed.installedVersion).toBeNull();
    expect(existsSync(join(host.dataDir, ...GEMINI_DIR))).toBe(false);

    const dataDir = host.dataDir;
    await host.close();
    t = await startTestHost({ dataDir });
    expect(await geminiOf(t)).toMatchObject({ status: 'failed', error: failed.error });
  });

  it('Cancel ends npm mid-download and nothing is installed', async () => {
    const host = await hostServing();
    server.hold = true;
    await host.call('acp.install', { kind: 'gemini' });
    await waitFor(() => server.heldOpen === 1, { timeoutMs: 60_000, message: 'npm to ask for the tarball' });
    const cancelled = (await host.call('acp.install.cancel', { kind: 'gemini' })).install;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.output.at(-1)).toBe('Cancelled.');
    // npm is gone: its request to the server was dropped with it.
    await waitFor(() => server.heldOpen === 0, { timeoutMs: 30_000, message: 'npm’s request to close' });
    expect(existsSync(join(host.dataDir, ...GEMINI_DIR))).toBe(false);
    expect(installEvents(host).at(-1)?.status).toBe('cancelled');
    expect(await geminiOf(host)).toMatchObject({ status: 'cancelled' });
  });

  it('Cancel after npm brought the dependencies removes them all, and keeps an earlier install and its files', async () => {
    // npm undoes some of its work on SIGTERM, unless it is killed first (a big install's undo outlasts the grace): killed at once here.
    const host = await hostServing(packed.folder, 0);
    await host.call('acp.install', { kind: 'gemini' });
    expect(await ended(host)).toMatchObject({ status: 'installed' });
    const agents = join(host.dataDir, 'agents');
    const manifestBefore = readFileSync(join(agents, 'package.json'), 'utf8');
    // A Claude stand-in with a dependency, whose install script never ends: npm stops there, dependencies on disk.
    const dependency = packFakeAgent('cairn-heavy-dependency', '1.0.0', 'heavy');
    const claude = packFakeAgent('@agentclientprotocol/claude-agent-acp', '0.101.0', 'claude-agent-acp', {
      dependencies: { 'cairn-heavy-dependency': `file:${dependency.tarball}` },
      scripts: { postinstall: 'node -e "setInterval(() => {}, 1000)"' },
    });
    copyFileSync(claude.tarball, join(packed.folder, basename(claude.tarball)));
    await host.call('acp.install', { kind: 'claude' });
    await waitFor(() => existsSync(join(agents, 'node_modules', 'cairn-heavy-dependency', 'package.json')), {
      timeoutMs: 60_000,
      message: 'npm to unpack the dependency',
    });
    expect((await host.call('acp.install.cancel', { kind: 'claude' })).install.status).toBe('cancelled');
    expect(existsSync(join(agents, 'node_modules', 'cairn-heavy-dependency'))).toBe(false);
    expect(existsSync(join(agents, 'node_modules', '.bin', 'heavy'))).toBe(false);
    expect(existsSync(join(agents, 'node_modules', '@agentclientprotocol'))).toBe(false);
    expect(readFileSync(join(agents, 'package.json'), 'utf8')).toBe(manifestBefore);
    expect(await geminiOf(host)).toMatchObject({ status: 'installed', installedVersion: '0.61.0' });
    expect(existsSync(join(host.dataDir, ...GEMINI_DIR, 'agent.js'))).toBe(true);
    rmSync(join(dependency.folder, '..'), { recursive: true, force: true });
    rmSync(join(claude.folder, '..'), { recursive: true, force: true });
  });

  it('an install cut short by Cairn stopping is removed at the next start and said to have failed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-install-'));
    dataDirs.push(dataDir);
    server = await TarballServer.start(packed.folder);
    const half = join(dataDir, ...GEMINI_DIR);
    mkdirSync(half, { recursive: true });
    writeFileSync(
      join(half, 'package.json'),
      JSON.stringify({ name: '@google/gemini-cli', version: '0.61.0', bin: { gemini: 'agent.js' } }),
    );
    writeFileSync(join(half, 'agent.js'), '');
    const earlier = join(dataDir, 'agents', 'node_modules', 'earlier-package');
    const dependency = join(dataDir, 'agents', 'node_modules', 'its-dependency');
    mkdirSync(earlier);
    mkdirSync(dependency);
    writeFileSync(
      join(dataDir, 'agents', 'cairn-installs.json'),
      JSON.stringify({
        gemini: { status: 'installing', error: null, output: ['npm install …'], at: 1, before: ['earlier-package'] },
      }),
    );
    t = await startTestHost({ dataDir });
    expect(await geminiOf(t)).toMatchObject({
      status: 'failed',
      error: 'Cairn stopped during the install; what it had installed was removed. Install again.',
    });
    expect(existsSync(half)).toBe(false);
    expect(existsSync(dependency)).toBe(false);
    expect(existsSync(earlier)).toBe(true);
  });
});

describe('installing an npm agent of the ACP registry', { timeout: 180_000 }, () => {
  it('the registry’s npm agent installs with the same installer, pinned to the entry, and gives the command a custom connection runs; others are refused', async () => {
    const agent = packFakeAgent('@cairn-test/fake-acp', '1.2.3', 'fake-acp');
    try {
      // The registry is served from the same loopback server as the tarballs.
      writeFileSync(
        join(agent.folder, 'registry.json'),
        JSON.stringify({
          version: '1.0.0',
          agents: [
            {
              id: 'fake-agent',
              name: 'Fake Agent',
              version: '1.2.3',
              description: 'A stand-in',
              distribution: { npx: { package: '@cairn-test/fake-acp@1.2.3', args: ['--acp', 'two words'] } },
            },
            {
              id: 'binary-agent',
              name: 'Binary Agent',
              version: '2.0.0',
              description: 'Downloads an archive',
              distribution: {
                binary: { 'linux-x86_64': { archive: 'https://example.test/b-2.0.0.tar.gz', cmd: './b' } },
              },
            },
          ],
          extensions: [],
        }),
      );
      server = await TarballServer.start(agent.folder);
      const dataDir = mkdtempSync(join(tmpdir(), 'cairn-install-'));
      dataDirs.push(dataDir);
      const host = await startTestHost({
        dataDir,
        acp: { installSource: server.url, registryUrl: `${server.url}/registry.json` },
      });
      t = host;
      expect((await host.call('acp.registry.list', {})).registry.source).toBe('snapshot');
      const { registry } = await host.call('acp.registry.refresh', {});
      expect(registry).toMatchObject({ source: 'network', refreshError: null });
      expect(registry.agents.map((entry) => entry.id)).toEqual(['fake-agent', 'binary-agent']);

      const fakeOf = async () =>
        (await host.call('acp.installs', {})).installs.find((install) => install.kind === 'registry:fake-agent');
      expect(await fakeOf()).toMatchObject({ status: 'not_installed', packageSpec: '@cairn-test/fake-acp@1.2.3' });
      const refused = await host.invoke('acp.install', { kind: 'registry:binary-agent' });
      expect(refused.ok ? null : refused.error.code).toBe('invalid_input');

      await host.call('acp.install', { kind: 'registry:fake-agent' });
      const done = await waitFor(
        async () => {
          const state = await fakeOf();
          return state !== undefined && state.status !== 'installing' ? state : null;
        },
        { timeoutMs: 90_000, intervalMs: 100, message: 'the install to end' },
      );
      const program = join(dataDir, 'agents', 'node_modules', '.bin', 'fake-acp');
      expect(done).toMatchObject({
        status: 'installed',
        installedVersion: '1.2.3',
        location: 'data_dir',
        command: `${program} --acp "two words"`,
      });
      expect(server.requests).toContain('/cairn-test-fake-acp-1.2.3.tgz');

      // The command is one a custom ACP connection accepts (its program exists and is executable).
      const created = await host.call('connection.create', {
        name: 'Fake Agent',
        providerType: 'acp',
        acpAgent: { command: program, args: ['--acp', 'two words'], env: {} },
      });
      expect(created.connection.acpAgent?.command).toBe(program);
    } finally {
      rmSync(join(agent.folder, '..'), { recursive: true, force: true });
    }
  });
});
