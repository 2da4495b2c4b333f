import { describe, expect, it } from 'vitest';
import { desktopBridge, inDesktopApp } from './desktop-bridge';

describe('the desktop bridge', () => {
  const bridge = { invoke: () => null, subscribe: () => () => {} };

  it('is the preload’s window.cairn, when it is there and looks like a Bridge', () => {
    expect(desktopBridge({ cairn: bridge } as unknown as Window)).toBe(bridge);
    expect(desktopBridge({ cairn: { invoke: () => null } } as unknown as Window)).toBeNull();
    expect(desktopBridge({} as Window)).toBeNull();
    expect(desktopBridge(undefined)).toBeNull();
  });

  it('inDesktopApp is true only where the preload exposed a bridge', () => {
    expect(inDesktopApp({ cairn: bridge } as unknown as Window)).toBe(true);
    expect(inDesktopApp({} as Window)).toBe(false);
    expect(inDesktopApp(undefined)).toBe(false);
  });
});
