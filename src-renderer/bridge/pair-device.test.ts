import { describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '../../src-shared/protocol';
import { fakeSocketFactory } from './fake-socket';
import { defaultDeviceName, pairDevice, pairingCodeFromFragment } from './pair-device';

describe('pairDevice', () => {
  it('sends the code and name instead of a hello and resolves with the credential the host gives', async () => {
    const sockets = fakeSocketFactory();
    const pairing = pairDevice({
      url: 'wss://127.0.0.2:4778/',
      code: 'K7QM-3XRP',
      deviceName: 'Pixel 9',
      openSocket: sockets.factory,
    });
    const socket = sockets.latest();
    socket.open();
    expect(socket.sent).toEqual([{ pair: { code: 'K7QM-3XRP', deviceName: 'Pixel 9' } }]);
    socket.receive({ paired: { credential: 'cairn-device.abc', device: { deviceId: 'd1', name: 'Pixel 9' } } });
    expect(await pairing).toEqual({ ok: true, credential: 'cairn-device.abc', deviceName: 'Pixel 9' });
  });

  it('shows the host’s reason when the code is refused, and a plain message when the line drops', async () => {
    const sockets = fakeSocketFactory();
    const refused = pairDevice({ url: 'wss://h/', code: 'WRONG', deviceName: 'Pixel 9', openSocket: sockets.factory });
    sockets.latest().open();
    sockets.latest().receive({ unrelated: true });
    sockets.latest().drop(CLOSE_CODES.pairingRefused, 'That code is not the one on show.');
    expect(await refused).toEqual({ ok: false, message: 'That code is not the one on show.' });

    const dropped = pairDevice({
      url: 'wss://h/',
      code: 'K7QM3XRP',
      deviceName: 'Pixel 9',
      openSocket: sockets.factory,
    });
    sockets.latest().drop();
    expect(await dropped).toMatchObject({ ok: false, message: expect.stringContaining('dropped') as unknown });
  });

  it('cancels: the socket closes (the host withdraws the request) and the pairing ends as cancelled', async () => {
    const sockets = fakeSocketFactory();
    const cancel = new AbortController();
    const waiting = pairDevice({
      url: 'wss://h/',
      code: 'K7QM3XRP',
      deviceName: 'Pixel 9',
      openSocket: sockets.factory,
      signal: cancel.signal,
    });
    sockets.latest().open();
    cancel.abort();
    expect(sockets.latest().closedWith).toBe(1000);
    expect(await waiting).toEqual({ ok: false, cancelled: true });
  });
});

describe('pairingCodeFromFragment', () => {
  it('reads the code a QR code’s address carries', () => {
    expect(pairingCodeFromFragment('#pair=K7QM-3XRP')).toBe('K7QM-3XRP');
    expect(pairingCodeFromFragment('#other=1')).toBe('');
  });
});

describe('defaultDeviceName', () => {
  it('names the phone model, or the kind of device', () => {
    expect(
      defaultDeviceName(
        'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
      ),
    ).toBe('Pixel 9');
    expect(
      defaultDeviceName('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36'),
    ).toBe('Android phone');
    expect(defaultDeviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15')).toBe(
      'iPhone',
    );
    expect(defaultDeviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15')).toBe('Mac');
    expect(defaultDeviceName('Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0')).toBe('Linux computer');
  });
});
