import type { Migration } from './migration';

/** Shell runs: each run_shell process, its status, exit and the tails of its output. */
export const migration004ShellRuns: Migration = {
  version: 4,
  name: 'shell-runs',
  up: `
    CREATE TABLE shell_runs (
      shell_run_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL,
      run_id TEXT NOT NULL,
      tool_call_id TEXT,
      command TEXT NOT NULL,
      cwd TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('starting', 'running', 'exited', 'killed', 'timed_out', 'orphaned')),
      exit_code INTEGER,
      signal TEXT,
      pid INTEGER,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      stdout_tail TEXT NOT NULL DEFAULT '',
      stderr_tail TEXT NOT NULL DEFAULT '',
      stdout_truncated INTEGER NOT NULL DEFAULT 0 CHECK (stdout_truncated IN (0, 1)),
      stderr_truncated INTEGER NOT NULL DEFAULT 0 CHECK (stderr_truncated IN (0, 1)),
      failure_message TEXT
    ) STRICT;
    CREATE INDEX shell_runs_by_session ON shell_runs (session_id, started_at);
    CREATE INDEX shell_runs_by_run ON shell_runs (run_id);
    CREATE INDEX shell_runs_live ON shell_runs (status) WHERE status IN ('starting', 'running');
  `,
};
