import type { Migration } from './migration';

/** A Codex connection may name the codex binary it runs (null: found automatically). */
export const migration014CodexBinary: Migration = {
  version: 14,
  name: 'codex-binary',
  up: `
    ALTER TABLE connections ADD COLUMN codex_binary TEXT;
  `,
};
