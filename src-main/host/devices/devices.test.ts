import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../../src-shared/protocol';
import { silentLogger } from '../../runtime/ports/ports';
import { startTestHost, type TestHost } from '../../testing/host-fixture';
import { connectProtocolClient, HandshakeRefused, type ProtocolClient } from '../../testing/protocol-client';
import { waitFor } from '../../testing/wait-for';
import { openHostReach } from '../transports/host-reach';
import type { ReachListener } from '../transports/reach-listener';
import { startWebSocketTransport, type WebSocketTransport } from '../transports/websocket-transport';
import { HOST_NAME_FILE } from './host-name';
import { REACH_CERT_FILE } from './reach-certificate';

/** The reach listener on 127.0.0.2 (loopback, never the LAN), a device pairing over WSS, and the desktop on 127.0.0.1. */
const TOKEN = 'devices-test-token-0123456789';
let t: TestHost;
let loopback: WebSocketTransport;
let reach: ReachListener;
let ca: string;
let reachWs: string;
const clients: ProtocolClient[] = [];

beforeEach(async () => {
  t = await startTestHost();
  loopback = await startWebSocketTransport({
    host: t.host,
    token: TOKEN,
    port: 0,
    logger: silentLogger,
    staticDir: null,
  });
  // As serve.ts and the desktop app's main process open it.
  reach = await openHostReach({
    host: t.host,
    token: TOKEN,
    loopbackOrigin: loopback.origin,
    dataDir: t.dataDir,
    staticDir: null,
    logger: silentLogger,
    commandLine: { address: '127.0.0.2' },
    port: 0,
  });
  const status = reach.status();
  expect(status.problem).toBeNull();
  ca = readFileSync(join(t.dataDir, REACH_CERT_FILE), 'utf8');
  reachWs = (status.origin ?? '').replace('https:', 'wss:');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await reach.close();
  await loopback.close();
  await t.close();
});

async function desktop(): Promise<ProtocolClient> {
  const client = await connectProtocolClient(`ws://127.0.0.1:${loopback.port}/`, { token: TOKEN });
  clients.push(client);
  return client;
}

/** Sends a pairing attempt over the reach listener; resolves with the credential, or the close code and reason. */
function pair(
  code: string,
  deviceName = 'Pixel 9',
): Promise<{ credential?: string; closeCode?: number; reason?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(reachWs, { ca });
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ pair: { code, deviceName } })));
    socket.once('message', (data) =>
      resolve({ credential: (JSON.parse(data.toString()) as { paired: { credential: string } }).paired.credential }),
    );
    socket.once('close', (closeCode, reason) => resolve({ closeCode, reason: reason.toString() }));
  });
}

/** Pairs a device the whole way: code shown on the desktop, proved by the device, confirmed on the desktop. */
async function pairDevice(name = 'Pixel 9'): Promise<string> {
  const d = await desktop();
  const offer = await d.call('device.pairing.start', {});
  const attempt = pair(offer.code.toLowerCase(), name);
  const request = await waitFor(async () => (await d.call('device.list', {})).pairing?.request ?? undefined);
  expect(request.deviceName).toBe(name);
  await d.call('device.pairing.confirm', { requestId: request.requestId, accept: true });
  const { credential } = await attempt;
  expect(credential).toMatch(/^cairn-device\./);
  return credential ?? '';
}

async function device(credential: string): Promise<ProtocolClient> {
  const client = await connectProtocolClient(reachWs, { token: credential, ca });
  clients.push(client);
  return client;
}

describe('reaching Cairn from other devices', () => {
  it('serves the reach listener over HTTPS only: plain HTTP to its port fails, and the host listens on loopback only', async () => {
    const status = reach.status();
    expect(status.origin).toMatch(/^https:\/\/127\.0\.0\.2:\d+\/$/);
    expect(status.certificate?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const port = Number(new URL(status.origin ?? '').port);
    const plain = await new Promise<string>((resolve) => {
      const sent = request({ host: '127.0.0.2', port, path: '/' }, (response) =>
        resolve(`HTTP ${response.statusCode}`),
      );
      sent.on('error', (error) => resolve(`failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      sent.end();
    });
    expect(plain).not.toMatch(/^HTTP 2/);
    const plainWs = await connectProtocolClient(`ws://127.0.0.2:${port}/`, { token: TOKEN }).then(
      () => 'welcomed',
      () => 'refused',
    );
    expect(plainWs).toBe('refused');
    // The listening sockets, as the kernel reports them: every one on 127.0.0.0/8.
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A')
      .map((fields) => fields[1] ?? '');
    const ours = listening.filter((local) => [loopback.port, port].includes(parseInt(local.split(':')[1] ?? '', 16)));
    expect(ours).toHaveLength(2);
    for (const local of ours) expect(local.split(':')[0]?.endsWith('7F')).toBe(true); // 127.x.x.x, little-endian hex
  });

  it('refuses plain HTTP on an address other devices reach, and an address that is not this machine’s, staying on loopback', async () => {
    await expect(
      startWebSocketTransport({
        host: t.host,
        token: TOKEN,
        port: 0,
        address: '10.11.12.13',
        logger: silentLogger,
        staticDir: null,
      }),
    ).rejects.toThrow(/HTTPS only/);
    const status = await reach.set({ enabled: true, address: '203.0.113.9' });
    expect(status.listening).toBe(false);
    expect(status.problem).toMatch(/203\.0\.113\.9 is not an address of this machine/);
    expect((await (await desktop()).call('host.info', {})).name).toBe('Cairn');
  });

  it('pairs a device with its own credential (never the token, kept hashed), refused once revoked, its socket closed within a second', async () => {
    const credential = await pairDevice();
    expect(credential).not.toContain(TOKEN);
    expect(readFileSync(join(t.dataDir, 'devices.json'), 'utf8')).not.toContain(credential.split('.')[2]);
    const phone = await device(credential);
    expect((await phone.call('session.create', {})).session.title).toBe('New session');
    const d = await desktop();
    const [listed] = (await d.call('device.list', {})).devices;
    expect(listed).toMatchObject({ name: 'Pixel 9', lastAddress: '127.0.0.1', connected: 1 });

    const closed = new Promise<number>((resolve) => phone.socket.once('close', (code) => resolve(code)));
    const revokedAt = Date.now();
    await d.call('device.revoke', { deviceId: listed?.deviceId ?? '' });
    expect(await closed).toBe(CLOSE_CODES.deviceRevoked);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    const again = await connectProtocolClient(reachWs, { token: credential, ca }).catch((error: unknown) => error);
    expect((again as HandshakeRefused).closeCode).toBe(CLOSE_CODES.badToken);
  });

  it('keeps a paired device and the desktop working through 5 wrong codes, which kill the code; a used code does not pair a second device', async () => {
    const credential = await pairDevice();
    const d = await desktop();
    const offer = await d.call('device.pairing.start', {});
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await pair('WRNG-CODE');
      expect(wrong.closeCode).toBe(CLOSE_CODES.pairingRefused);
      // A paired device is welcomed at once between the wrong tries.
      expect((await (await device(credential)).call('host.info', {})).name).toBe('Cairn');
    }
    expect((await pair(offer.code)).reason).toMatch(/no longer valid/);
    expect((await d.call('device.list', {})).pairing).toBeNull();
    // A fresh code pairs once; the same code again is refused.
    await pairDevice('Laptop');
    const used = (await d.call('device.list', {})).devices.map((listed) => listed.name);
    expect(used).toEqual(['Pixel 9', 'Laptop']);
  });

  it('refuses a device what stays on the desktop with device_forbidden', async () => {
    const phone = await device(await pairDevice());
    const { session } = await phone.call('session.create', {});
    expect(
      (await phone.invoke('session.configure', { sessionId: session.sessionId, permissionMode: 'full' })).ok
        ? 'ok'
        : 'refused',
    ).toBe('refused');
    const outcomes = await Promise.all([
      phone.invoke('session.configure', { sessionId: session.sessionId, permissionMode: 'full' }),
      phone.invoke('device.pairing.start', {}),
      phone.invoke('connection.remove', { connectionId: 'x' }),
    ]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: false, error: { code: 'device_forbidden' } });
    expect(
      (await phone.call('session.configure', { sessionId: session.sessionId, permissionMode: 'ask' })).session
        .permissionMode,
    ).toBe('ask');
    expect(
      (await (await desktop()).call('session.configure', { sessionId: session.sessionId, permissionMode: 'full' }))
        .session.permissionMode,
    ).toBe('full');
  });

  it('names this Cairn: the machine’s name until the desktop chooses one (kept in the data directory), never from a device', async () => {
    const d = await desktop();
    expect((await d.call('host.info', {})).hostName).toBe(hostname());
    expect((await d.call('device.list', {})).hostName).toEqual({
      name: hostname(),
      custom: false,
      machineName: hostname(),
    });
    const phone = await device(await pairDevice());
    expect(await phone.invoke('device.hostName.set', { name: 'Phone says' })).toMatchObject({
      ok: false,
      error: { code: 'device_forbidden' },
    });
    expect(await d.call('device.hostName.set', { name: '  workstation ' })).toMatchObject({
      name: 'workstation',
      custom: true,
    });
    expect((await phone.call('host.info', {})).hostName).toBe('workstation');
    expect(readFileSync(join(t.dataDir, HOST_NAME_FILE), 'utf8')).toContain('workstation');
    expect((await d.call('device.hostName.set', { name: '' })).name).toBe(hostname());
  });

  it('regenerates the certificate without signing out a device', async () => {
    const credential = await pairDevice();
    const before = reach.status().certificate?.fingerprint;
    const status = await reach.regenerate();
    expect(status.certificate?.fingerprint).not.toBe(before);
    ca = readFileSync(join(t.dataDir, REACH_CERT_FILE), 'utf8');
    reachWs = (status.origin ?? '').replace('https:', 'wss:');
    expect((await (await device(credential)).call('host.info', {})).name).toBe('Cairn');
  });

  it('records which device answered an approval (its name), and no device for the desktop', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cairn-devices-answer-'));
    try {
      const phone = await device(await pairDevice());
      const d = await desktop();
      const { session } = await d.call('session.create', { workspacePath: workspace, permissionMode: 'ask' });
      const pendingApproval = async (turnId: string, content: string) => {
        await d.call('turn.start', {
          sessionId: session.sessionId,
          turnId,
          text: `/tool write_file {"path":"${turnId}.md","content":"${content}"}`,
        });
        return waitFor(
          async () =>
            (await d.call('interaction.list', { sessionId: session.sessionId, status: 'pending' })).interactions[0],
        );
      };
      const fromPhone = await pendingApproval('phone', 'a');
      await phone.call('interaction.answer', {
        interactionId: fromPhone.interactionId,
        answer: { action: 'accept', decision: 'allow_once' },
      });
      expect((await d.call('interaction.get', { interactionId: fromPhone.interactionId })).interaction).toMatchObject({
        status: 'answered',
        answeredFrom: 'Pixel 9',
      });
      await waitFor(async () =>
        (await d.call('interaction.list', { sessionId: session.sessionId, status: 'pending' })).interactions.length ===
        0
          ? true
          : undefined,
      );
      await waitFor(async () =>
        (await d.call('turn.query', { sessionId: session.sessionId, turnId: 'phone' })).turn.status === 'completed'
          ? true
          : undefined,
      );

      const fromDesktop = await pendingApproval('desktop', 'b');
      await d.call('interaction.answer', {
        interactionId: fromDesktop.interactionId,
        answer: { action: 'accept', decision: 'allow_once' },
      });
      expect(
        (await d.call('interaction.get', { interactionId: fromDesktop.interactionId })).interaction,
      ).not.toHaveProperty('answeredFrom');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('records which device pressed Stop (its name), and no device for the desktop', async () => {
    const phone = await device(await pairDevice());
    const d = await desktop();
    const { session } = await d.call('session.create', {});
    const stopHeld = async (turnId: string, by: ProtocolClient) => {
      await d.call('turn.start', { sessionId: session.sessionId, turnId, text: '/hold' });
      await waitFor(async () =>
        (await d.call('turn.query', { sessionId: session.sessionId, turnId })).turn.status === 'running'
          ? true
          : undefined,
      );
      await by.call('turn.stop', { sessionId: session.sessionId, turnId });
      return waitFor(async () => {
        const { turn } = await d.call('turn.query', { sessionId: session.sessionId, turnId });
        return turn.status === 'cancelled' ? turn.latestRun : undefined;
      });
    };
    expect(await stopHeld('from-phone', phone)).toMatchObject({
      terminalReason: 'stop_button',
      stoppedFrom: 'Pixel 9',
    });
    expect(await stopHeld('from-desktop', d)).not.toHaveProperty('stoppedFrom');
  });
});
