import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAcpRegistry } from '../../../src-shared/acp-registry-model';
import { silentLogger } from '../ports/ports';
import { ACP_REGISTRY_SNAPSHOT_AT, AcpRegistry } from './acp-registry';
import snapshot from './acp-registry-snapshot.json';

/** The ACP agent registry: its schema, the snapshot, refreshes from a loopback server, the kept copy. */

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Agent ${id}`,
  version: '1.2.3',
  description: `The ${id} agent`,
  repository: `https://example.test/${id}`,
  license: 'MIT',
  distribution: { npx: { package: `${id}-acp@1.2.3`, args: ['--acp'] } },
  ...extra,
});

let server: Server | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A loopback server answering the registry's address with `answer()` (status and body) each time. */
async function serve(answer: () => { status: number; body: string }): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((_request, response) => {
    hits += 1;
    const { status, body } = answer();
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/registry.json`, hits: () => hits };
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-registry-'));
  dirs.push(dir);
  return dir;
}

describe('the registry schema', () => {
  it('keeps the well-formed agents, drops and counts a malformed one, ignores unknown fields', () => {
    const { agents, dropped } = parseAcpRegistry(
      {
        version: '1.0.0',
        agents: [
          entry('alpha', { icon: 'https://example.test/alpha.svg', somethingNew: { nested: true } }),
          { id: 'Bad Id', name: '', version: 'latest', distribution: {} },
          entry('beta', { distribution: { npx: { package: 'https://evil.test/x.tgz' } } }),
          entry('alpha'),
          entry('gamma', { distribution: { uvx: { package: 'gamma-agent==1.2.3', args: ['acp'] } } }),
          entry('delta', {
            distribution: { binary: { 'linux-x86_64': { archive: 'javascript:alert(1)', cmd: './delta' } } },
          }),
          entry('epsilon', { repository: 'javascript:alert(1)' }),
        ],
        extensions: [],
      },
      'linux-x86_64',
    );
    expect(agents.map((agent) => agent.id)).toEqual(['alpha', 'gamma', 'epsilon']);
    expect(dropped).toBe(4);
    // A repository that is not an http(s) address is left out, not the agent.
    expect(agents[2]?.repository).toBeNull();
    expect(agents[0]).toEqual({
      id: 'alpha',
      name: 'Agent alpha',
      version: '1.2.3',
      description: 'The alpha agent',
      repository: 'https://example.test/alpha',
      license: 'MIT',
      authors: [],
      install: { kind: 'npm', packageSpec: 'alpha-acp@1.2.3', args: ['--acp'] },
    });
    expect(agents[1]?.install).toEqual({
      kind: 'manual',
      distribution: 'uvx',
      suggestedCommand: 'uvx gamma-agent==1.2.3 acp',
      source: 'https://pypi.org/project/gamma-agent/',
    });
  });

  it('refuses a document that is not a registry', () => {
    expect(() => parseAcpRegistry({ agents: 'none' }, 'linux-x86_64')).toThrow(/not an ACP registry/);
  });

  it('reads the shipped snapshot whole: Claude, Gemini CLI and OpenCode map to the presets; binaries say where to get them', () => {
    const { agents, dropped } = parseAcpRegistry(snapshot, 'linux-x86_64');
    expect(dropped).toBe(0);
    expect(agents.length).toBe(snapshot.agents.length);
    const byId = new Map(agents.map((agent) => [agent.id, agent]));
    expect(byId.get('claude-code-acp')?.install).toEqual({ kind: 'preset', preset: 'claude' });
    expect(byId.get('gemini')?.install).toEqual({ kind: 'preset', preset: 'gemini' });
    expect(byId.get('opencode')?.install).toEqual({ kind: 'preset', preset: 'opencode' });
    expect(byId.get('qwen-code')?.install).toEqual({
      kind: 'npm',
      packageSpec: '@qwen-code/qwen-code@0.9.1',
      args: ['--acp', '--experimental-skills'],
    });
    const codex = byId.get('codex-acp')?.install;
    expect(codex?.kind === 'manual' && codex.distribution).toBe('binary');
    expect(codex?.kind === 'manual' && codex.source).toMatch(/x86_64-unknown-linux-gnu\.tar\.gz$/);
  });
});

describe('refreshing the list', () => {
  it('starts from the snapshot, refreshes from the registry, keeps the copy, and reads it after a restart', async () => {
    const registry = { version: '1.0.0', agents: [entry('alpha'), { id: 'broken' }], extensions: [] };
    const { url, hits } = await serve(() => ({ status: 200, body: JSON.stringify(registry) }));
    const dir = dataDir();
    let now = Date.parse('2026-12-01T10:00:00Z');
    const make = () => new AcpRegistry({ dataDir: dir, url, now: () => now, logger: silentLogger });
    const first = make();
    expect(first.list()).toMatchObject({ source: 'snapshot', asOf: ACP_REGISTRY_SNAPSHOT_AT, refreshError: null });
    expect(first.due()).toBe(true);

    const refreshed = await first.refresh();
    expect(refreshed).toMatchObject({ source: 'network', asOf: now, dropped: 1, refreshError: null });
    expect(refreshed.agents.map((agent) => agent.id)).toEqual(['alpha']);
    expect(hits()).toBe(1);
    const cached = JSON.parse(readFileSync(join(dir, 'acp-registry.json'), 'utf8')) as { fetchedAt: number };
    expect(cached.fetchedAt).toBe(now);

    // About once a day: not due an hour later, due a day later.
    now += 60 * 60 * 1000;
    expect(first.due()).toBe(false);
    first.refreshIfDue();
    expect(hits()).toBe(1);

    const restarted = make();
    expect(restarted.list()).toMatchObject({ source: 'cache', asOf: cached.fetchedAt, dropped: 1 });
    expect(restarted.agent('alpha')?.name).toBe('Agent alpha');
    now += 24 * 60 * 60 * 1000;
    expect(restarted.due()).toBe(true);
  });

  it('a bad answer, an error status or an unreachable registry keeps the previous list and says why', async () => {
    let answer = { status: 200, body: JSON.stringify({ version: '1.0.0', agents: [entry('alpha')] }) };
    const { url } = await serve(() => answer);
    const dir = dataDir();
    const registry = new AcpRegistry({ dataDir: dir, url, now: () => Date.now(), logger: silentLogger });
    await registry.refresh();
    const good = readFileSync(join(dir, 'acp-registry.json'), 'utf8');

    answer = { status: 200, body: '<html>maintenance</html>' };
    let list = await registry.refresh();
    expect(list.refreshError).toMatch(/not JSON/);
    expect(list.agents.map((agent) => agent.id)).toEqual(['alpha']);

    answer = { status: 200, body: JSON.stringify({ version: '1.0.0', agents: [{ id: 'broken' }] }) };
    list = await registry.refresh();
    expect(list.refreshError).toMatch(/lists no agent Cairn can read/);
    expect(list.agents.map((agent) => agent.id)).toEqual(['alpha']);

    answer = { status: 503, body: 'busy' };
    list = await registry.refresh();
    expect(list.refreshError).toMatch(/answered 503/);
    expect(list).toMatchObject({ source: 'network' });
    // The kept copy is still the last good one.
    expect(readFileSync(join(dir, 'acp-registry.json'), 'utf8')).toBe(good);

    const unreachable = new AcpRegistry({
      dataDir: dir,
      url: 'http://127.0.0.1:9/registry.json',
      now: () => Date.now(),
      logger: silentLogger,
    });
    list = await unreachable.refresh();
    expect(list.refreshError).toMatch(/Could not refresh the agent list from http:\/\/127\.0\.0\.1:9/);
    expect(list).toMatchObject({ source: 'cache' });
    expect(list.agents.map((agent) => agent.id)).toEqual(['alpha']);
  });

  it('a registry that does not answer in time is given up, and a damaged kept copy falls back to the snapshot', async () => {
    const hung = createServer(() => {});
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const dir = dataDir();
    writeFileSync(join(dir, 'acp-registry.json'), '{"fetchedAt": 1, "registry": {"version": "1.0.0", "agents": "x"}}');
    try {
      const registry = new AcpRegistry({
        dataDir: dir,
        url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}/registry.json`,
        now: () => Date.now(),
        logger: silentLogger,
        timeoutMs: 300,
      });
      expect(registry.list().source).toBe('snapshot');
      const list = await registry.refresh();
      expect(list.refreshError).toMatch(/no answer in time/);
      expect(list.source).toBe('snapshot');
      expect(existsSync(join(dir, 'acp-registry.json'))).toBe(true);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });
});
