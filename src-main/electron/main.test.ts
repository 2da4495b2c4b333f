import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outcome } from '../../src-shared/errors';
import type { ReachStatus } from '../../src-shared/device-model';
import type { HostInfo } from '../../src-shared/model';
import type { DeviceListResult } from '../../src-shared/operations/device-operations';
import { createHost } from '../host/create-host';
import { HOST_TOKEN_FILE } from '../host/transports/host-token';
import { IPC_INVOKE_CHANNEL, type IpcInvokeListener } from '../host/transports/ipc-transport';
import { LOCAL_SOCKET_NAME } from '../../src-shared/protocol';
import { REACH_CERT_FILE } from '../host/devices/reach-certificate';
import { connectLocalHost } from '../host-client/local-host-client';
import { connectProtocolClient } from '../testing/protocol-client';
import { silentLogger } from '../runtime/ports/ports';
import { startLocalSocketListener } from '../host/transports/local-socket-listener';
import { LOCK_FILE } from '../storage/data-dir-lock';
import { DATABASE_FILE } from '../storage/database';
import { corruptIndexPage } from '../storage/testing/corrupt-database';
import { OVERRIDE_PROFILE_FOLDER } from './desktop-paths';
import { WINDOW_STATE_FILE } from './window-state';

/**
 * The Electron entry, run in Node against a stub `electron` module (the binary cannot start on
 * these machines) and a real Host in a temporary data directory: proves the wiring and its order.
 */

type Listener = (...args: unknown[]) => void;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

function emitter() {
  const listeners = new Map<string, Listener[]>();
  return {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    emit(event: string, ...args: unknown[]) {
      for (const listener of listeners.get(event) ?? []) listener(...args);
    },
    has: (event: string) => (listeners.get(event)?.length ?? 0) > 0,
  };
}

function createElectronStub(options: { singleInstance: boolean; appPath: string; messageBoxResponse: number }) {
  const calls: string[] = [];
  const appEvents = emitter();
  const paths = new Map([['userData', join(options.appPath, 'default-user-data')]]);
  const loaded = deferred<string>();
  const exited = deferred<number>();
  const quitted = deferred();
  const handlers = new Map<string, IpcInvokeListener>();
  const windows: FakeWindow[] = [];
  const errorBoxes: string[] = [];
  const messageBoxes: string[] = [];
  const openedExternally: string[] = [];
  const session = {
    cspInstalled: false,
    requestHandler: false,
    checkHandler: false,
  };

  class FakeWindow {
    readonly events = emitter();
    readonly sent: unknown[] = [];
    readonly webContents = {
      id: 1,
      events: emitter(),
      openHandler: null as unknown,
      send: (_channel: string, payload: unknown) => this.sent.push(payload),
      isDestroyed: () => false,
      on: (event: string, listener: Listener) => this.webContents.events.on(event, listener),
      setWindowOpenHandler: (handler: unknown) => (this.webContents.openHandler = handler),
    };
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this);
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
    on(event: string, listener: Listener) {
      this.events.on(event, listener);
      return this;
    }
    once(event: string, listener: Listener) {
      return this.on(event, listener);
    }
    loadURL(url: string) {
      loaded.resolve(url);
      return Promise.resolve();
    }
    getNormalBounds = () => ({ x: 40, y: 50, width: 1000, height: 700 });
    isMaximized = () => false;
  }

  const app = {
    isPackaged: false,
    getPath: (name: string) => paths.get(name) ?? join(options.appPath, name),
    setPath: (name: string, value: string) => {
      calls.push(`setPath ${name}`);
      paths.set(name, value);
    },
    getAppPath: () => options.appPath,
    enableSandbox: () => calls.push('enableSandbox'),
    requestSingleInstanceLock: () => {
      calls.push('requestSingleInstanceLock');
      return options.singleInstance;
    },
    whenReady: () => Promise.resolve(),
    on: (event: string, listener: Listener) => appEvents.on(event, listener),
    quit: () => {
      calls.push('quit');
      let prevented = false;
      appEvents.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) quitted.resolve();
    },
    exit: (code: number) => {
      calls.push(`exit ${code}`);
      exited.resolve(code);
    },
  };

  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: {
      showErrorBox: (_title: string, text: string) => errorBoxes.push(text),
      showMessageBox: (box: { message: string; buttons: string[] }) => {
        messageBoxes.push(`${box.message} [${box.buttons.join(' | ')}]`);
        return Promise.resolve({ response: options.messageBoxResponse });
      },
    },
    ipcMain: {
      handle: (channel: string, listener: IpcInvokeListener) => handlers.set(channel, listener),
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => (session.cspInstalled = true) },
        setPermissionRequestHandler: () => (session.requestHandler = true),
        setPermissionCheckHandler: () => (session.checkHandler = true),
      },
    },
    shell: {
      openExternal: (url: string) => {
        openedExternally.push(url);
        return Promise.resolve();
      },
    },
    // No OS keychain in the stub: the host falls back to its key-file vault.
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    Notification: class {
      static isSupported() {
        return false;
      }
    },
  };
  return {
    electron,
    calls,
    paths,
    loaded,
    exited,
    quitted,
    handlers,
    windows,
    errorBoxes,
    messageBoxes,
    openedExternally,
    session,
  };
}

let root: string;
let dataDir: string;
let signalListeners: Record<'SIGINT' | 'SIGTERM', NodeJS.SignalsListener[]>;
let running: ReturnType<typeof createElectronStub> | null = null;
const savedEnv = {
  CAIRN_DATA_DIR: process.env.CAIRN_DATA_DIR,
  ELECTRON_RENDERER_URL: process.env.ELECTRON_RENDERER_URL,
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-electron-main-'));
  dataDir = join(root, 'data');
  process.env.CAIRN_DATA_DIR = dataDir;
  delete process.env.ELECTRON_RENDERER_URL;
  signalListeners = { SIGINT: [...process.listeners('SIGINT')], SIGTERM: [...process.listeners('SIGTERM')] };
  vi.resetModules();
});

afterEach(async () => {
  // A test that left the app running quits it, so the host closes its database before the folder goes.
  if (running !== null && running.handlers.size > 0) {
    running.electron.app.quit();
    await running.quitted.promise;
  }
  running = null;
  // main.ts adds SIGINT/SIGTERM handlers that call app.quit(); remove only those it added.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal))
      if (!signalListeners[signal].includes(listener)) process.off(signal, listener);
  }
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  vi.doUnmock('electron');
  rmSync(root, { recursive: true, force: true });
});

async function startMain(options: { singleInstance?: boolean; messageBoxResponse?: number } = {}) {
  const stub = createElectronStub({
    singleInstance: options.singleInstance ?? true,
    appPath: root,
    messageBoxResponse: options.messageBoxResponse ?? 1,
  });
  running = stub;
  vi.doMock('electron', () => stub.electron);
  await import('./main');
  return stub;
}

describe('the Electron entry', () => {
  it('moves userData under CAIRN_DATA_DIR and enables the sandbox before taking the single-instance lock', async () => {
    const stub = await startMain();
    await stub.loaded.promise;
    expect(stub.calls.slice(0, 3)).toEqual(['setPath userData', 'enableSandbox', 'requestSingleInstanceLock']);
    expect(stub.paths.get('userData')).toBe(join(dataDir, OVERRIDE_PROFILE_FOLDER));
  });

  it('installs the policies, opens one secure window on the built renderer, and answers over IPC', async () => {
    const stub = await startMain();
    const url = await stub.loaded.promise;
    expect(url).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
    expect(stub.session).toEqual({ cspInstalled: true, requestHandler: true, checkHandler: true });

    expect(stub.windows).toHaveLength(1);
    const window = stub.windows[0]!;
    const preferences = window.options.webPreferences as Record<string, unknown>;
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(isAbsolute(String(preferences.preload))).toBe(true);
    expect(String(preferences.preload).endsWith(`${sep}preload${sep}index.cjs`)).toBe(true);
    // The navigation guards were installed on the window's contents as it was created.
    expect(window.webContents.events.has('will-navigate')).toBe(true);
    expect(window.webContents.openHandler).not.toBeNull();

    expect([...stub.handlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    const invoke = stub.handlers.get(IPC_INVOKE_CHANNEL)!;
    const info = (await invoke(
      { sender: { id: 1 }, senderFrame: { url, parent: null } },
      { op: 'host.info', input: {} },
    )) as Outcome<HostInfo>;
    expect(info.ok && info.result.dataDir).toBe(dataDir);
    const refused = await invoke(
      { sender: { id: 1 }, senderFrame: { url: 'https://example.com/', parent: null } },
      { op: 'host.info', input: {} },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('forwards change events to the window', async () => {
    const stub = await startMain();
    const url = await stub.loaded.promise;
    const invoke = stub.handlers.get(IPC_INVOKE_CHANNEL)!;
    await invoke(
      { sender: { id: 1 }, senderFrame: { url, parent: null } },
      { op: 'session.create', input: { title: 'From the window' } },
    );
    expect(stub.windows[0]!.sent).toContainEqual(expect.objectContaining({ kind: 'session.changed' }));
  });

  it('runs the listener other devices reach in the main process: Settings → Devices turns it on (127.0.0.2, HTTPS) and off', async () => {
    const stub = await startMain();
    const url = await stub.loaded.promise;
    const invoke = stub.handlers.get(IPC_INVOKE_CHANNEL)!;
    const call = async <T>(op: string, input: unknown) =>
      (await invoke({ sender: { id: 1 }, senderFrame: { url, parent: null } }, { op, input })) as Outcome<T>;
    const off = await call<DeviceListResult>('device.list', {});
    expect(off.ok && off.result.reach).toMatchObject({ available: true, listening: false, source: null });

    const on = await call<ReachStatus>('device.reach.set', { enabled: true, address: '127.0.0.2' });
    if (!on.ok) throw new Error(on.error.message);
    expect(on.result).toMatchObject({ listening: true, problem: null, source: 'settings' });
    expect(on.result.origin).toMatch(/^https:\/\/127\.0\.0\.2:\d+\/$/);
    // It speaks the protocol over WSS with the certificate kept in the data directory.
    const wss = (on.result.origin ?? '').replace('https:', 'wss:');
    const ca = readFileSync(join(dataDir, REACH_CERT_FILE), 'utf8');
    const token = readFileSync(join(dataDir, HOST_TOKEN_FILE), 'utf8').trim();
    const client = await connectProtocolClient(wss, { token, ca });
    expect((await client.call('host.info', {})).dataDir).toBe(dataDir);
    await client.close();

    const closed = await call<ReachStatus>('device.reach.set', { enabled: false });
    expect(closed.ok && closed.result.listening).toBe(false);
    await expect(connectProtocolClient(wss, { token, ca })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('on quit drains the host (releasing the data directory) before quitting for real', async () => {
    const stub = await startMain();
    await stub.loaded.promise;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    stub.electron.app.quit();
    await stub.quitted.promise;
    expect(stub.calls.filter((call) => call === 'quit')).toHaveLength(2);
    expect(stub.handlers.size).toBe(0);
    // The lock is released: another host can open the same data directory.
    const next = await createHost({ dataDir, logger: silentLogger, sandbox: 'off' });
    await next.close();
  });

  it('remembers the window bounds when the window closes', async () => {
    const stub = await startMain();
    await stub.loaded.promise;
    stub.windows[0]!.events.emit('close');
    expect(existsSync(join(dataDir, OVERRIDE_PROFILE_FOLDER, WINDOW_STATE_FILE))).toBe(true);
  });

  it('quits at once, opening nothing, when another instance holds the lock', async () => {
    const stub = await startMain({ singleInstance: false });
    expect(stub.calls).toEqual(['setPath userData', 'enableSandbox', 'requestSingleInstanceLock', 'quit']);
    expect(stub.windows).toHaveLength(0);
    expect(stub.handlers.size).toBe(0);
  });

  it('shows a clear error and exits when the data directory is in use', async () => {
    const other = await createHost({ dataDir, logger: silentLogger, sandbox: 'off' });
    try {
      const stub = await startMain();
      expect(await stub.exited.promise).toBe(1);
      expect(stub.errorBoxes).toHaveLength(1);
      expect(stub.errorBoxes[0]).toMatch(/already in use by another Cairn host/);
      expect(stub.windows).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('opens the local socket editors reach it by (cairn acp), saying it has no page of its own', async () => {
    const stub = await startMain();
    await stub.loaded.promise;
    const client = await connectLocalHost(join(dataDir, LOCAL_SOCKET_NAME));
    try {
      expect(client.welcome).toMatchObject({ dataDir, pageUrl: null });
      const info = await client.invoke('host.info', {});
      expect(info.ok && info.result.dataDir).toBe(dataDir);
    } finally {
      client.close();
    }
  });

  it('offers the page of a headless host that already holds the data directory (started by cairn acp), and exits', async () => {
    const other = await createHost({ dataDir, logger: silentLogger, sandbox: 'off' });
    const pageUrl = 'http://127.0.0.1:4777/#token=running-host-token';
    const local = await startLocalSocketListener({ host: other, dataDir, logger: silentLogger, pageUrl });
    try {
      const stub = await startMain({ messageBoxResponse: 0 });
      expect(await stub.exited.promise).toBe(0);
      expect(stub.messageBoxes).toEqual(['Cairn is already running for this data directory [Open in browser | Quit]']);
      expect(stub.openedExternally).toEqual([pageUrl]);
      expect(stub.errorBoxes).toEqual([]);
      expect(stub.windows).toHaveLength(0);
    } finally {
      await local.close();
      await other.close();
    }
  });

  async function damagedDataDir() {
    const seeded = await createHost({ dataDir, logger: silentLogger, sandbox: 'off' });
    await seeded.invoke('session.create', { title: 'Kept through the damage' });
    await seeded.close();
    corruptIndexPage(join(dataDir, DATABASE_FILE), null);
  }

  it('offers to salvage a damaged database and, when the person declines, says what is wrong and exits', async () => {
    await damagedDataDir();
    const stub = await startMain({ messageBoxResponse: 1 });
    expect(await stub.exited.promise).toBe(1);
    expect(stub.messageBoxes).toEqual(["Cairn's database is damaged [Salvage and start | Quit]"]);
    expect(stub.errorBoxes[0]).toContain(
      `Cairn's database ${join(dataDir, DATABASE_FILE)} is damaged (file is not a database)`,
    );
    expect(stub.windows).toHaveLength(0);
  });

  it('salvages a damaged database when the person agrees, keeping the damaged file, and opens the window', async () => {
    await damagedDataDir();
    const stub = await startMain({ messageBoxResponse: 0 });
    await stub.loaded.promise;
    expect(stub.errorBoxes).toEqual([]);
    expect(readdirSync(dataDir).some((name) => name.startsWith(`${DATABASE_FILE}.damaged-`))).toBe(true);
    expect(stub.windows).toHaveLength(1);
  });
});
