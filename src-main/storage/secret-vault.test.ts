import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { createKeyFileCipher, openSecretVault, SECRET_KEY_FILE, SECRETS_FILE } from './secret-vault';

describe('the secret vault', () => {
  const dir = useTempDirs();

  it('keeps secrets encrypted in a file only the user can read, and reads them back after reopening', () => {
    const path = dir();
    const vault = openSecretVault(path, createKeyFileCipher(path));
    vault.put('k1', 'sk-live-abcdef123456');
    const onDisk = readFileSync(join(path, SECRETS_FILE), 'utf8');
    expect(onDisk).not.toContain('sk-live-abcdef123456');
    expect(statSync(join(path, SECRETS_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    const reopened = openSecretVault(path, createKeyFileCipher(path));
    expect(reopened.get('k1')).toBe('sk-live-abcdef123456');
    reopened.delete('k1');
    expect(openSecretVault(path, createKeyFileCipher(path)).get('k1')).toBeNull();
  });

  it('refuses to read a vault sealed by another cipher', () => {
    const path = dir();
    openSecretVault(path, createKeyFileCipher(path)).put('k', 'v');
    const other = { kind: 'safe-storage', encrypt: (plain: string) => plain, decrypt: (sealed: string) => sealed };
    expect(() => openSecretVault(path, other)).toThrow(/sealed with aes-256-gcm-keyfile/);
  });

  it('detects tampering', () => {
    const path = dir();
    const cipher = createKeyFileCipher(path);
    const sealed = cipher.encrypt('secret');
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body ?? '', 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => cipher.decrypt([iv, tag, flipped.toString('base64')].join('.'))).toThrow();
  });
});
