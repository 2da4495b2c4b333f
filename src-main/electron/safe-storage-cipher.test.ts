import { describe, expect, it } from 'vitest';
import { safeStorageCipher } from './safe-storage-cipher';

describe('safeStorageCipher', () => {
  it('round-trips through safeStorage and never stores the plain text', () => {
    const fake = {
      isEncryptionAvailable: () => true,
      encryptString: (plain: string) => Buffer.from([...plain].reverse().join(''), 'utf8'),
      decryptString: (sealed: Buffer) => [...sealed.toString('utf8')].reverse().join(''),
    };
    const cipher = safeStorageCipher(fake);
    const sealed = cipher?.encrypt('sk-secret') ?? '';
    expect(sealed).not.toContain('sk-secret');
    expect(cipher?.decrypt(sealed)).toBe('sk-secret');
  });

  it('is null where the OS offers no encryption (the key-file vault is used instead)', () => {
    expect(
      safeStorageCipher({
        isEncryptionAvailable: () => false,
        encryptString: () => Buffer.alloc(0),
        decryptString: () => '',
      }),
    ).toBeNull();
  });
});
