import type { Migration } from './migration';

/**
 * "Allow for this session" can be taken back: an approval that granted a tool for the session keeps
 * its answer (the record of what the person decided) and gains the time the grant was revoked.
 */
export const migration011PermissionGrantRevocations: Migration = {
  version: 11,
  name: 'permission-grant-revocations',
  up: `
    ALTER TABLE interactions ADD COLUMN grant_revoked_at INTEGER;
  `,
};
