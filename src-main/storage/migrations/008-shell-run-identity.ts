import type { Migration } from './migration';

/** Shell runs: the start identity of each process, so a restarted host can tell it from a reused pid. */
export const migration008ShellRunIdentity: Migration = {
  version: 8,
  name: 'shell-run-identity',
  up: `
    ALTER TABLE shell_runs ADD COLUMN process_start TEXT;
  `,
};
