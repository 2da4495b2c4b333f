import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** "Reach this Cairn from other devices" as chosen in Settings → Devices, kept in the data directory's `reach.json`. */

export const REACH_SETTINGS_FILE = 'reach.json';

export interface ReachSettings {
  readonly enabled: boolean;
  readonly address: string | null;
  readonly certFile: string | null;
  readonly keyFile: string | null;
}

const OFF: ReachSettings = { enabled: false, address: null, certFile: null, keyFile: null };

export function readReachSettings(dataDir: string): ReachSettings {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, REACH_SETTINGS_FILE), 'utf8')) as Partial<
      Record<keyof ReachSettings, unknown>
    >;
    const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);
    return {
      enabled: parsed.enabled === true,
      address: text(parsed.address),
      certFile: text(parsed.certFile),
      keyFile: text(parsed.keyFile),
    };
  } catch {
    // None yet (or unreadable): off, as on a first start.
    return OFF;
  }
}

export function saveReachSettings(dataDir: string, settings: ReachSettings): void {
  const path = join(dataDir, REACH_SETTINGS_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}
