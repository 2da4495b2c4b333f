import type { Migration } from './migration';

/**
 * A Codex thread that replaced one Codex could not resume owes its first turn a summary of Cairn's
 * record. Kept on the thread row until a turn on it has started, so a failed `turn/start` (or a
 * restart) before then still sends it.
 */
export const migration036CodexThreadSummary: Migration = {
  version: 36,
  name: 'codex-thread-summary',
  up: `
    ALTER TABLE codex_threads ADD COLUMN summary_due INTEGER NOT NULL DEFAULT 0 CHECK (summary_due IN (0, 1));
  `,
};
