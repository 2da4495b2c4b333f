import type { Migration } from './migration';

/**
 * The last Test of a connection — when, the verdict, what it said and how long it took — kept on the
 * connection so Settings still shows it after a reload or a restart. Null until the first Test.
 */
export const migration035ConnectionLastTest: Migration = {
  version: 35,
  name: 'connection-last-test',
  up: `
    ALTER TABLE connections ADD COLUMN last_test_at INTEGER;
    ALTER TABLE connections ADD COLUMN last_test_verdict TEXT CHECK (last_test_verdict IN ('ok', 'bad_key', 'unreachable', 'model_unknown', 'server_error'));
    ALTER TABLE connections ADD COLUMN last_test_message TEXT;
    ALTER TABLE connections ADD COLUMN last_test_latency_ms INTEGER;
  `,
};
