import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The headless host's access token, kept in the data directory so a restarted host accepts the tabs
 * it served before. The file is created on first start, readable only by its owner (mode 0600);
 * `rotate` replaces it (every open tab must then be given the new address).
 */

export const HOST_TOKEN_FILE = 'host-token';
const MIN_LENGTH = 8;

export interface StoredToken {
  readonly token: string;
  /** How the token came about, for the start-up line: kept from an earlier start, new, or replaced. */
  readonly source: 'kept' | 'created' | 'rotated';
  readonly path: string;
}

export class HostTokenError extends Error {}

export function storedHostToken(dataDir: string, options: { rotate: boolean }): StoredToken {
  const path = join(dataDir, HOST_TOKEN_FILE);
  if (!options.rotate) {
    const kept = readKept(path);
    if (kept !== null) return { token: kept, source: 'kept', path };
  }
  const token = randomBytes(24).toString('base64url');
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${token}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temp, path);
  } catch (error) {
    throw new HostTokenError(
      `Could not write the access token to ${path} (${errorCode(error)}). Check that the data directory is writable, or give a token with --token-file or CAIRN_TOKEN.`,
    );
  }
  return { token, source: options.rotate ? 'rotated' : 'created', path };
}

/** The kept token, or null when there is none yet; a file that is not a usable token is an error, never overwritten silently. */
function readKept(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HostTokenError(
      `Could not read the access token file ${path} (${errorCode(error)}). Start with --new-token to replace it.`,
    );
  }
  const token = text.trim();
  if (token.length < MIN_LENGTH || /\s/.test(token)) {
    throw new HostTokenError(
      `The access token file ${path} does not hold a token. Start with --new-token to replace it.`,
    );
  }
  tightenMode(path);
  return token;
}

/** A token file someone made readable by others is put back to 0600 (the host owns it). */
function tightenMode(path: string): void {
  if (process.platform === 'win32') return;
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Reading worked; a failed chmod leaves the file as it was and the token still serves.
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
