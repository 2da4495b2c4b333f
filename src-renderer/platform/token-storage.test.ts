import { describe, expect, it } from 'vitest';
import type { TokenEnvironment } from './token-storage';
import { DEVICE_CREDENTIAL_KEY, storedDeviceCredential, TOKEN_STORAGE_KEY, takeHostToken } from './token-storage';

function environment(hash: string, stored: string | null = null) {
  const storage = new Map<string, string>(stored === null ? [] : [[TOKEN_STORAGE_KEY, stored]]);
  const replaced: string[] = [];
  const env: TokenEnvironment = {
    location: { hash, pathname: '/', search: '' },
    history: { replaceState: (_data, _unused, url) => replaced.push(String(url)) },
    storage: { getItem: (key) => storage.get(key) ?? null, setItem: (key, value) => void storage.set(key, value) },
  };
  return { env, storage, replaced };
}

describe('takeHostToken', () => {
  it('takes the token from the fragment, stores it and removes it from the address', () => {
    const { env, storage, replaced } = environment('#token=abc123');
    expect(takeHostToken(env)).toBe('abc123');
    expect(storage.get(TOKEN_STORAGE_KEY)).toBe('abc123');
    expect(replaced).toEqual(['/']);
  });

  it('keeps other fragment keys in the address', () => {
    const { env, replaced } = environment('#token=abc123&session=s1');
    takeHostToken(env);
    expect(replaced).toEqual(['/#session=s1']);
  });

  it('uses the stored token after a reload, without touching the address', () => {
    const { env, replaced } = environment('#session=s1', 'stored-token');
    expect(takeHostToken(env)).toBe('stored-token');
    expect(replaced).toEqual([]);
  });

  it('says there is none when neither has it', () => {
    expect(takeHostToken(environment('').env)).toBeNull();
  });
});

describe('storedDeviceCredential', () => {
  it('reads the credential a paired device keeps, and none when there is none or storage is refused', () => {
    expect(
      storedDeviceCredential({ getItem: (key) => (key === DEVICE_CREDENTIAL_KEY ? 'cairn-device.a.b' : null) }),
    ).toBe('cairn-device.a.b');
    expect(storedDeviceCredential({ getItem: () => null })).toBeNull();
    expect(
      storedDeviceCredential({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBeNull();
  });
});
