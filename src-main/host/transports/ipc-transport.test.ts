import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../src-shared/events';
import { silentLogger } from '../../runtime/ports/ports';
import { createHost, type Host } from '../create-host';
import {
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  isAppUrl,
  startIpcTransport,
  type IpcEventTarget,
  type IpcInvokeEvent,
  type IpcInvokeListener,
  type IpcMainLike,
  type IpcTransport,
} from './ipc-transport';

const APP_URL = pathToFileURL(join(tmpdir(), 'cairn app', 'out', 'renderer', 'index.html')).href;

/** Stands in for Electron's ipcMain: records handlers so a test can call them like a renderer would. */
function fakeIpcMain() {
  const handlers = new Map<string, IpcInvokeListener>();
  const ipcMain: IpcMainLike = {
    handle(channel, listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler(channel) {
      handlers.delete(channel);
    },
  };
  const invoke = (payload: unknown, event: Partial<IpcInvokeEvent> = {}) => {
    const handler = handlers.get(IPC_INVOKE_CHANNEL);
    if (handler === undefined) throw new Error(`No handler registered for '${IPC_INVOKE_CHANNEL}'`);
    return handler({ sender: { id: 7 }, senderFrame: { url: APP_URL, parent: null }, ...event }, payload);
  };
  return { ipcMain, handlers, invoke };
}

/** Stands in for a window's webContents: resolves `next(kind)` when an event of that kind arrives. */
function fakeWindow() {
  const received: { channel: string; payload: unknown }[] = [];
  const waiters: { kind: string; resolve: (event: ChangeEvent) => void }[] = [];
  let destroyed = false;
  const target: IpcEventTarget = {
    send(channel, payload) {
      received.push({ channel, payload });
      const event = payload as ChangeEvent;
      for (const waiter of waiters.filter((w) => w.kind === event.kind)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    },
    isDestroyed: () => destroyed,
  };
  return {
    target,
    received,
    destroy: () => {
      destroyed = true;
    },
    next: (kind: ChangeEvent['kind']) => new Promise<ChangeEvent>((resolve) => waiters.push({ kind, resolve })),
  };
}

describe('isAppUrl', () => {
  it('accepts the renderer file itself, with any query or fragment', () => {
    expect(isAppUrl(APP_URL, APP_URL)).toBe(true);
    expect(isAppUrl(`${APP_URL}#/sessions/s-1`, APP_URL)).toBe(true);
    expect(isAppUrl(`${APP_URL}?x=1`, APP_URL)).toBe(true);
  });

  it('refuses other files, other schemes and garbage for a file:// app', () => {
    expect(isAppUrl(pathToFileURL(join(tmpdir(), 'cairn app', 'out', 'renderer', 'other.html')).href, APP_URL)).toBe(
      false,
    );
    expect(isAppUrl('file:///etc/passwd', APP_URL)).toBe(false);
    expect(isAppUrl('https://example.com/index.html', APP_URL)).toBe(false);
    expect(isAppUrl('about:blank', APP_URL)).toBe(false);
    expect(isAppUrl('', APP_URL)).toBe(false);
    expect(isAppUrl('not a url', APP_URL)).toBe(false);
  });

  it('accepts any page of the dev server origin and nothing else', () => {
    const dev = 'http://localhost:5173';
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5173/index.html#x', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', dev)).toBe(false);
    expect(isAppUrl('http://localhost.evil.com:5173/', dev)).toBe(false);
    expect(isAppUrl(APP_URL, dev)).toBe(false);
  });

  it('trusts nothing when the app URL itself is not http(s) or file', () => {
    expect(isAppUrl('about:blank', 'about:blank')).toBe(false);
    expect(isAppUrl('data:text/html,x', 'data:text/html,x')).toBe(false);
  });
});

describe('the IPC transport', () => {
  let dataDir: string;
  let host: Host;
  let transport: IpcTransport;
  let ipc: ReturnType<typeof fakeIpcMain>;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-ipc-'));
    host = await createHost({ dataDir, logger: silentLogger, flushMs: 5, sandbox: 'off' });
    ipc = fakeIpcMain();
    transport = startIpcTransport({ host, ipcMain: ipc.ipcMain, appUrl: APP_URL, logger: silentLogger });
  });
  afterEach(async () => {
    transport.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers exactly one handler, on cairn:invoke', () => {
    expect([...ipc.handlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
  });

  it('answers an operation from the app window with the dispatcher outcome', async () => {
    const outcome = await ipc.invoke({ op: 'host.info', input: {} });
    expect(outcome).toEqual({ ok: true, result: host.info });
  });

  it('passes strict input decoding through: unknown keys are invalid_input', async () => {
    const outcome = await ipc.invoke({ op: 'session.create', input: { title: 'x', surprise: true } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('refuses a request from another page, a subframe or a vanished frame, without dispatching', async () => {
    const refusals = await Promise.all([
      ipc.invoke({ op: 'session.create', input: {} }, { senderFrame: { url: 'https://example.com/', parent: null } }),
      ipc.invoke({ op: 'session.create', input: {} }, { senderFrame: { url: APP_URL, parent: {} } }),
      ipc.invoke({ op: 'session.create', input: {} }, { senderFrame: null }),
    ]);
    for (const outcome of refusals) expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const list = await host.invoke('session.list', {});
    expect(list.ok && list.result.sessions).toEqual([]);
  });

  it('refuses malformed payloads', async () => {
    for (const payload of [
      undefined,
      null,
      'session.list',
      { op: 42, input: {} },
      { op: 'host.info', input: {}, extra: 1 },
    ]) {
      expect(await ipc.invoke(payload)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });

  it('treats a missing input as an empty one', async () => {
    expect(await ipc.invoke({ op: 'host.info' })).toMatchObject({ ok: true });
  });

  it('forwards change events on cairn:event to an attached window until detached', async () => {
    const window = fakeWindow();
    const detach = transport.attachWindow(window.target);
    const changed = window.next('session.changed');
    const created = await ipc.invoke({ op: 'session.create', input: { title: 'Over IPC' } });
    expect(created).toMatchObject({ ok: true });
    const event = await changed;
    expect(event).toMatchObject({
      kind: 'session.changed',
      session: { title: 'Over IPC' },
      hostEpoch: host.info.hostEpoch,
    });
    expect(window.received.every((message) => message.channel === IPC_EVENT_CHANNEL)).toBe(true);

    detach();
    const count = window.received.length;
    const control = fakeWindow();
    transport.attachWindow(control.target);
    const seenByControl = control.next('session.changed');
    await host.invoke('session.create', { title: 'Unseen' });
    await seenByControl;
    expect(window.received.length).toBe(count);
  });

  it('stops sending to a destroyed window', async () => {
    const window = fakeWindow();
    const control = fakeWindow();
    transport.attachWindow(window.target);
    transport.attachWindow(control.target);
    window.destroy();
    const seenByControl = control.next('session.changed');
    await host.invoke('session.create', { title: 'After the window closed' });
    await seenByControl;
    expect(window.received).toEqual([]);
  });

  it('on close removes the handler and stops forwarding', async () => {
    const window = fakeWindow();
    transport.attachWindow(window.target);
    transport.close();
    expect(ipc.handlers.size).toBe(0);
    await host.invoke('session.create', { title: 'After close' });
    expect(window.received).toEqual([]);
    expect(() => ipc.invoke({ op: 'host.info', input: {} })).toThrow(/No handler/);
  });

  it('maps a dispatcher that throws to internal_failure', async () => {
    const broken = fakeIpcMain();
    const brokenTransport = startIpcTransport({
      host: { dispatch: () => Promise.reject(new Error('boom')), subscribe: () => () => {} },
      ipcMain: broken.ipcMain,
      appUrl: APP_URL,
      logger: silentLogger,
    });
    expect(await broken.invoke({ op: 'host.info', input: {} })).toEqual({
      ok: false,
      error: { code: 'internal_failure', message: expect.not.stringContaining('boom') as unknown as string },
    });
    brokenTransport.close();
  });
});
