import { spawn } from 'node:child_process';
import { existsSync, lstatSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../src-shared/events';
import { connectLocalHost, LocalHostUnavailable } from '../../host-client/local-host-client';
import { startTestHost, tempDataDir, type TestHost } from '../../testing/host-fixture';
import { waitFor } from '../../testing/wait-for';
import { localSocketPath, startLocalSocketListener, type LocalSocketListener } from './local-socket-listener';
import { PROTOCOL_VERSION } from '../../../src-shared/protocol';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostWithSocket(dataDir?: string): Promise<{ t: TestHost; listener: LocalSocketListener }> {
  const t = await startTestHost(dataDir === undefined ? {} : { dataDir });
  cleanups.push(() => t.close());
  const listener = await startLocalSocketListener({
    host: t.host,
    dataDir: t.dataDir,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    pageUrl: 'http://127.0.0.1:4777/#token=page-token',
  });
  cleanups.push(() => listener.close());
  return { t, listener };
}

describe('the host’s local socket', () => {
  it('serves the operations protocol, with its change events, over a 0600 socket in the data directory, gone when the host closes', async () => {
    const { t, listener } = await hostWithSocket();
    expect(listener.path).toBe(localSocketPath(t.dataDir));
    const stats = statSync(localSocketPath(t.dataDir));
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);

    const client = await connectLocalHost(localSocketPath(t.dataDir));
    cleanups.push(() => client.close());
    expect(client.welcome).toMatchObject({
      protocol: PROTOCOL_VERSION,
      dataDir: t.dataDir,
      pageUrl: 'http://127.0.0.1:4777/#token=page-token',
    });
    const events: ChangeEvent[] = [];
    client.onEvent((event) => events.push(event));
    const created = await client.invoke('session.create', { title: 'From the socket' });
    expect(created.ok).toBe(true);
    await waitFor(() => events.find((event) => event.kind === 'session.changed'), { message: 'the change event' });
    const refused = await client.invoke('session.get', { sessionId: 'no-such-session' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });

    await listener.close();
    expect(existsSync(localSocketPath(t.dataDir))).toBe(false);
  });

  it('takes the place of a socket a killed host left, and answers a message that is not a hello by closing', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    const path = localSocketPath(dir);
    const squatter = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(path)})`,
    ]);
    await waitFor(() => existsSync(path), { message: 'the old socket' });
    squatter.kill('SIGKILL');
    await new Promise((resolve) => squatter.once('exit', resolve));
    expect(lstatSync(path).isSocket()).toBe(true); // left behind

    await hostWithSocket(dir);
    const client = await connectLocalHost(path);
    cleanups.push(() => client.close());
    expect(client.welcome.dataDir).toBe(dir);

    const raw = connect(path);
    let said = '';
    raw.on('data', (chunk) => (said += chunk.toString()));
    raw.write('{"id":1,"op":"session.list","input":{}}\n');
    await new Promise((resolve) => raw.once('close', resolve));
    expect(JSON.parse(said)).toEqual({ refused: 'Expected a hello message' });
  });

  it('is not talked to when the file in its place is not a socket', async () => {
    const { dir, cleanup } = tempDataDir();
    cleanups.push(cleanup);
    writeFileSync(localSocketPath(dir), 'not a socket');
    await expect(connectLocalHost(localSocketPath(dir))).rejects.toBeInstanceOf(LocalHostUnavailable);
    await expect(connectLocalHost(localSocketPath(dir))).rejects.toMatchObject({ reason: 'refused' });
  });
});
