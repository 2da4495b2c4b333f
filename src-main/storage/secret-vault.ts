import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tightenPrivateFile } from './private-files';

/**
 * API keys live here, encrypted, in a file only the user can read — never in the database, never in
 * the ledger, never sent to the renderer. The catalog refers to a key by its secret id.
 */
export interface SecretVault {
  put(secretId: string, value: string): void;
  get(secretId: string): string | null;
  delete(secretId: string): void;
}

/** How secrets are sealed: Electron's safeStorage on the desktop, a local key file in the headless host. */
export interface SecretCipher {
  readonly kind: string;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export const SECRETS_FILE = 'secrets.json';
export const SECRET_KEY_FILE = 'secret.key';

interface VaultFile {
  readonly version: 1;
  readonly cipher: string;
  readonly secrets: Record<string, string>;
}

/** AES-256-GCM with a random key kept in `secret.key` (mode 0600) beside the vault. */
export function createKeyFileCipher(dataDir: string): SecretCipher {
  const keyPath = join(dataDir, SECRET_KEY_FILE);
  let key: Buffer;
  if (existsSync(keyPath)) {
    key = Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64');
    tightenPrivateFile(keyPath);
    if (key.length !== 32)
      throw new Error(`${keyPath} is not a valid Cairn secret key; remove it and re-enter your API keys.`);
  } else {
    key = randomBytes(32);
    writeFileSync(keyPath, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    tightenPrivateFile(keyPath);
  }
  return {
    kind: 'aes-256-gcm-keyfile',
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.');
    },
    decrypt(sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
      if (iv === undefined || tag === undefined || body === undefined) throw new Error('A stored secret is damaged');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

export function openSecretVault(dataDir: string, cipher: SecretCipher): SecretVault {
  const path = join(dataDir, SECRETS_FILE);
  let file: VaultFile = { version: 1, cipher: cipher.kind, secrets: {} };
  if (existsSync(path)) {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as VaultFile;
    if (parsed.cipher !== cipher.kind) {
      throw new Error(`The secret vault was sealed with ${parsed.cipher}, but this host uses ${cipher.kind}.`);
    }
    file = parsed;
    chmodSync(path, 0o600);
  }
  const save = () => {
    const temp = `${path}.tmp`;
    writeFileSync(temp, JSON.stringify(file), { mode: 0o600 });
    tightenPrivateFile(temp);
    renameSync(temp, path);
  };
  return {
    put(secretId, value) {
      file = { ...file, secrets: { ...file.secrets, [secretId]: cipher.encrypt(value) } };
      save();
    },
    get(secretId) {
      const sealed = file.secrets[secretId];
      return sealed === undefined ? null : cipher.decrypt(sealed);
    },
    delete(secretId) {
      if (!(secretId in file.secrets)) return;
      const { [secretId]: _removed, ...rest } = file.secrets;
      file = { ...file, secrets: rest };
      save();
    },
  };
}
