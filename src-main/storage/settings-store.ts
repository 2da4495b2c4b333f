import type { Db } from './database';

/** Small host-wide values (the default model target, the catalog revision), stored as JSON by key. */
export interface SettingsStore {
  get<T>(key: string): T | null;
  set(key: string, value: unknown): void;
}

export function createSettingsStore(db: Db): SettingsStore {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  return {
    get<T>(key: string): T | null {
      const row = get.get(key);
      return row === undefined ? null : (JSON.parse(row.value) as T);
    },
    set(key, value) {
      set.run(key, JSON.stringify(value));
    },
  };
}
