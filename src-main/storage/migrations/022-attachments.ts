import type { Migration } from './migration';

/**
 * Files attached to messages. The bytes live in the data directory under `attachments/`, named by
 * their SHA-256 (one file for every attachment with the same content); a row names one attachment.
 */
export const migration022Attachments: Migration = {
  version: 22,
  name: 'attachments',
  up: `
    CREATE TABLE attachments (
      attachment_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      media_type TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('text', 'image')),
      size_bytes INTEGER NOT NULL,
      sha256 TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX attachments_by_session ON attachments (session_id);
    CREATE INDEX attachments_by_sha256 ON attachments (sha256);
  `,
};
