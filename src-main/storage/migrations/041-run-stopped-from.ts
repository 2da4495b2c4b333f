import type { Migration } from './migration';

/** The paired device a run was stopped from (its name then), for "Stopped from Pixel 9"; NULL for the desktop and for older rows. */
export const migration041RunStoppedFrom: Migration = {
  version: 41,
  name: 'run-stopped-from',
  up: `
    ALTER TABLE runs ADD COLUMN stopped_from TEXT;
  `,
};
