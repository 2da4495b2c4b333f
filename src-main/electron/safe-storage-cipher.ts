import type { SafeStorage } from 'electron';
import type { SecretCipher } from '../storage/secret-vault';

/** API keys sealed with the OS keychain through Electron's safeStorage, or null where it is unavailable. */
export function safeStorageCipher(
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>,
): SecretCipher | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  return {
    kind: 'electron-safe-storage',
    encrypt: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decrypt: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
