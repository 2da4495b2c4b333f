import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { HostName } from '../../../src-shared/device-model';

/**
 * The name a window shows for the Cairn it is connected to ("on workstation"): the one the person
 * set in Settings → Devices (kept in the data directory's `host-name.json`), else this machine's.
 */

export const HOST_NAME_FILE = 'host-name.json';

export function readHostName(dataDir: string): HostName {
  const machineName = hostname() || 'this computer';
  let chosen: unknown = null;
  try {
    chosen = (JSON.parse(readFileSync(join(dataDir, HOST_NAME_FILE), 'utf8')) as { name?: unknown }).name;
  } catch {
    // None set (or unreadable): the machine's own name.
  }
  return typeof chosen === 'string' && chosen.trim() !== ''
    ? { name: chosen.trim(), custom: true, machineName }
    : { name: machineName, custom: false, machineName };
}

/** Keeps the name the person chose; '' goes back to the machine's own. */
export function saveHostName(dataDir: string, name: string): HostName {
  const path = join(dataDir, HOST_NAME_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ name: name.trim() })}\n`, { mode: 0o600 });
  renameSync(temp, path);
  return readHostName(dataDir);
}
