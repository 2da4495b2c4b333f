/**
 * Where half-filled answers are kept across reloads: localStorage in a window, memory in tests. Storage
 * can be missing or full (private modes, quotas); then drafts simply live as long as the page.
 */
export interface DraftStorage {
  read(key: string): string | null;
  write(key: string, value: string): void;
  remove(key: string): void;
}

/** `storage` is read on each use: merely touching `window.localStorage` can throw where it is blocked. */
export function browserDraftStorage(storage: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>): DraftStorage {
  return {
    read(key) {
      try {
        return storage().getItem(key);
      } catch {
        return null;
      }
    },
    write(key, value) {
      try {
        storage().setItem(key, value);
      } catch {
        // Unavailable or full: the draft stays in memory only.
      }
    },
    remove(key) {
      try {
        storage().removeItem(key);
      } catch {
        // Nothing to clean up where there is no storage.
      }
    },
  };
}

export function memoryDraftStorage(): DraftStorage & { readonly entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    read: (key) => entries.get(key) ?? null,
    write: (key, value) => void entries.set(key, value),
    remove: (key) => void entries.delete(key),
  };
}
