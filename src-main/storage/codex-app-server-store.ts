import type { Db } from './database';

export type AppServerState = 'running' | 'quarantined' | 'leftover_stopped';

/** A session's Codex app-server as recorded at spawn, by process identity. */
export interface AppServerRecord {
  readonly sessionId: string;
  readonly pid: number;
  /** The process's start identity (see process-identity.ts), or null when it could not be read. */
  readonly processStart: string | null;
  readonly spawnedAt: number;
  readonly state: AppServerState;
  readonly changedAt: number;
}

/**
 * The app-server each session runs, so a host that died leaves a record of what may still be alive:
 * `running` while it runs, `quarantined` when it could not be confirmed gone, `leftover_stopped` once a
 * later host stopped it (kept as the session's record of that). Gone processes are forgotten.
 */
export interface CodexAppServerStore {
  get(sessionId: string): AppServerRecord | null;
  /** Every app-server that may still be alive (running or quarantined). */
  live(): AppServerRecord[];
  spawned(sessionId: string, pid: number, processStart: string | null, now: number): void;
  setState(sessionId: string, pid: number, state: AppServerState, now: number): void;
  /** The app-server `pid` of the session is confirmed gone: its record goes (a stopped leftover's stays). */
  gone(sessionId: string, pid: number): void;
}

interface Row {
  session_id: string;
  pid: number;
  process_start: string | null;
  spawned_at: number;
  state: AppServerState;
  changed_at: number;
}

const toRecord = (row: Row): AppServerRecord => ({
  sessionId: row.session_id,
  pid: row.pid,
  processStart: row.process_start,
  spawnedAt: row.spawned_at,
  state: row.state,
  changedAt: row.changed_at,
});

export function createCodexAppServerStore(db: Db): CodexAppServerStore {
  const get = db.prepare<[string], Row>('SELECT * FROM codex_app_servers WHERE session_id = ?');
  const live = db.prepare<[], Row>(
    "SELECT * FROM codex_app_servers WHERE state IN ('running', 'quarantined') ORDER BY spawned_at",
  );
  const upsert = db.prepare(`
    INSERT INTO codex_app_servers (session_id, pid, process_start, spawned_at, state, changed_at) VALUES (?, ?, ?, ?, 'running', ?)
    ON CONFLICT (session_id) DO UPDATE SET pid = excluded.pid, process_start = excluded.process_start, spawned_at = excluded.spawned_at,
      state = 'running', changed_at = excluded.changed_at`);
  const setState = db.prepare(
    'UPDATE codex_app_servers SET state = ?, changed_at = ? WHERE session_id = ? AND pid = ?',
  );
  const remove = db.prepare(
    "DELETE FROM codex_app_servers WHERE session_id = ? AND pid = ? AND state <> 'leftover_stopped'",
  );
  return {
    get(sessionId) {
      const row = get.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    live: () => live.all().map(toRecord),
    spawned(sessionId, pid, processStart, now) {
      upsert.run(sessionId, pid, processStart, now, now);
    },
    setState(sessionId, pid, state, now) {
      setState.run(state, now, sessionId, pid);
    },
    gone(sessionId, pid) {
      remove.run(sessionId, pid);
    },
  };
}
