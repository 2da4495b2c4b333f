import type { Migration } from './migration';

/**
 * How long a connection waits for a provider: for the first token of an answer, and between its
 * parts once it flows. Defaults that suit real models, including slow local ones.
 */
export const migration012ConnectionTimeouts: Migration = {
  version: 12,
  name: 'connection-timeouts',
  up: `
    ALTER TABLE connections ADD COLUMN first_token_timeout_seconds INTEGER NOT NULL DEFAULT 120;
    ALTER TABLE connections ADD COLUMN idle_timeout_seconds INTEGER NOT NULL DEFAULT 60;
  `,
};
