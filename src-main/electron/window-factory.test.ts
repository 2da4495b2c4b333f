import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Electron cannot start on these machines: a stub BrowserWindow records how it was constructed. */
const stub = vi.hoisted(() => {
  const created: { options: Record<string, unknown>; calls: string[]; readyToShow: () => void }[] = [];
  class BrowserWindow {
    readonly calls: string[] = [];
    private ready: () => void = () => {};
    constructor(options: Record<string, unknown>) {
      created.push({ options, calls: this.calls, readyToShow: () => this.ready() });
    }
    once(event: string, listener: () => void) {
      if (event === 'ready-to-show') this.ready = listener;
      return this;
    }
    maximize() {
      this.calls.push('maximize');
    }
    show() {
      this.calls.push('show');
    }
  }
  return { created, BrowserWindow };
});

vi.mock('electron', () => ({ BrowserWindow: stub.BrowserWindow }));

const { buildWebPreferences, createMainWindow, focusWindow } = await import('./window-factory');

const PRELOAD = '/opt/cairn/out/preload/index.cjs';
const SECURE_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  preload: PRELOAD,
};

beforeEach(() => {
  stub.created.length = 0;
});

describe('the window factory', () => {
  it('builds exactly the secure webPreferences, and nothing else', () => {
    expect(buildWebPreferences(PRELOAD)).toStrictEqual(SECURE_PREFERENCES);
  });

  it('creates the window with those webPreferences, hidden until ready, at the given bounds', () => {
    createMainWindow({ preloadPath: PRELOAD, bounds: { x: 10, y: 20, width: 1000, height: 700, maximized: false } });
    expect(stub.created).toHaveLength(1);
    const { options, calls, readyToShow } = stub.created[0]!;
    expect(options.webPreferences).toStrictEqual(SECURE_PREFERENCES);
    expect(options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700, show: false });
    expect(options).not.toHaveProperty('maximized');
    expect(calls).toEqual([]);
    readyToShow();
    expect(calls).toEqual(['show']);
  });

  it('opens maximized when it was closed maximized', () => {
    createMainWindow({ preloadPath: PRELOAD, bounds: { width: 1000, height: 700, maximized: true } });
    const { options, calls, readyToShow } = stub.created[0]!;
    expect(options).not.toHaveProperty('x');
    readyToShow();
    expect(calls).toEqual(['maximize', 'show']);
  });

  it('focusing restores a minimized window first', () => {
    const calls: string[] = [];
    const window = {
      isMinimized: () => true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    };
    focusWindow(window);
    expect(calls).toEqual(['restore', 'show', 'focus']);
  });
});
