import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../storage/database';
import { startTestHost, useTempDirs, type TestHost } from '../testing/host-fixture';

/** The data directory is private (issue 40 point 8): the folder 0700, the files at its top 0600. */
const modeOf = (path: string) => statSync(path).mode & 0o777;
/** Every file at the top of the folder (not below it) with its mode, in octal. */
const topFiles = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => [entry.name, modeOf(join(dir, entry.name)).toString(8)]),
  );

describe.skipIf(process.platform === 'win32')('the data directory', () => {
  const dir = useTempDirs();
  const hosts: TestHost[] = [];
  const umask = process.umask();
  afterEach(async () => {
    process.umask(umask);
    for (const host of hosts.splice(0)) await host.close();
  });

  it('is made 0700 with its databases, secrets and lock 0600, whatever the umask', async () => {
    process.umask(0);
    const dataDir = join(dir(), 'fresh');
    const t = await startTestHost({ dataDir });
    hosts.push(t);
    await t.call('connection.create', { name: 'OpenAI', providerType: 'openai', apiKey: 'sk-private-file-test' });
    expect(modeOf(dataDir).toString(8)).toBe('700');
    const files = topFiles(dataDir);
    for (const name of [
      'cairn.sqlite',
      'cairn.sqlite-wal',
      'cairn.sqlite-shm',
      'memory.sqlite',
      'memory.sqlite-wal',
      'memory.sqlite-shm',
      'cairn.lock',
      'cairn.lock.owner',
      'secret.key',
      'secrets.json',
    ]) {
      expect(files, name).toHaveProperty([name]);
    }
    expect(Object.entries(files).filter(([, mode]) => mode !== '600')).toEqual([]);
  });

  it('is tightened at start when an older Cairn left it readable by others, never below its top', async () => {
    const dataDir = dir();
    chmodSync(dataDir, 0o755);
    // An older start: databases 0644 (SQLite's default) with their -wal/-shm.
    const db = openDatabase(dataDir);
    db.prepare('CREATE TABLE IF NOT EXISTS scratch (x)').run();
    for (const name of ['cairn.sqlite', 'cairn.sqlite-wal', 'cairn.sqlite-shm']) chmodSync(join(dataDir, name), 0o644);
    db.close();
    writeFileSync(join(dataDir, 'cairn.lock'), '');
    chmodSync(join(dataDir, 'cairn.lock'), 0o644);
    // The person's and the agents' files below the top keep their modes.
    mkdirSync(join(dataDir, 'agents', 'bin'), { recursive: true });
    writeFileSync(join(dataDir, 'agents', 'bin', 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    chmodSync(join(dataDir, 'agents', 'bin', 'agent'), 0o755);
    chmodSync(join(dataDir, 'agents'), 0o755);

    hosts.push(await startTestHost({ dataDir }));
    expect(modeOf(dataDir).toString(8)).toBe('700');
    expect(Object.entries(topFiles(dataDir)).filter(([, mode]) => mode !== '600')).toEqual([]);
    expect(modeOf(join(dataDir, 'agents')).toString(8)).toBe('755');
    expect(modeOf(join(dataDir, 'agents', 'bin', 'agent')).toString(8)).toBe('755');
  });
});
