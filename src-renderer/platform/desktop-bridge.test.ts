import { describe, expect, it } from 'vitest';
import { inDesktopApp } from './desktop-bridge';

describe('inDesktopApp', () => {
  it('is true only where the preload exposed a bridge', () => {
    expect(inDesktopApp({ cairn: { invoke: () => null, subscribe: () => () => {} } } as unknown as Window)).toBe(true);
    expect(inDesktopApp({} as Window)).toBe(false);
    expect(inDesktopApp(undefined)).toBe(false);
  });
});
