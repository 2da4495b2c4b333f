import type { Migration } from './migration';

/** The paired device an interaction was answered from (its name then), for "Allowed once from Pixel 9"; NULL for the desktop and for older rows. */
export const migration040InteractionAnsweredFrom: Migration = {
  version: 40,
  name: 'interaction-answered-from',
  up: `
    ALTER TABLE interactions ADD COLUMN answered_from TEXT;
  `,
};
