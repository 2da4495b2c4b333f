import type { Db } from './database';

/**
 * Which sessions use which offloaded output (`offload_uses`), and the handles whose last use went
 * (`offload_released`, filled by a trigger when a session's rows go with it).
 */
export interface OffloadUseStore {
  /** Records that `sessionId` sent the model the handle (once; repeats are ignored). */
  note(handle: string, sessionId: string): void;
  /** Whether any session uses the handle. */
  isUsed(handle: string): boolean;
  /** Handles no session used any more when their last use went (a session using one again still counts). */
  released(): string[];
  /** Takes a handle off the released list (its file was deleted, or a session uses it again). */
  forgetReleased(handle: string): void;
  /** Handles whose every use is by an archived session: what deleting the archived sessions would release. */
  onlyArchived(): string[];
}

export function createOffloadUseStore(db: Db): OffloadUseStore {
  const note = db.prepare('INSERT OR IGNORE INTO offload_uses (handle, session_id) VALUES (?, ?)');
  const used = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM offload_uses WHERE handle = ? LIMIT 1');
  const released = db.prepare<[], { handle: string }>('SELECT handle FROM offload_released');
  const forget = db.prepare('DELETE FROM offload_released WHERE handle = ?');
  const onlyArchived = db.prepare<[], { handle: string }>(`
    SELECT u.handle FROM offload_uses u JOIN sessions s ON s.session_id = u.session_id
    GROUP BY u.handle HAVING MIN(s.archived) = 1`);
  return {
    note(handle, sessionId) {
      note.run(handle, sessionId);
    },
    isUsed: (handle) => used.get(handle) !== undefined,
    released: () => released.all().map((row) => row.handle),
    forgetReleased(handle) {
      forget.run(handle);
    },
    onlyArchived: () => onlyArchived.all().map((row) => row.handle),
  };
}
