import type { Migration } from './migration';

/**
 * Chat essentials:
 * - `message_search`: a full-text index over what was said (the person's and the agent's messages),
 *   one row per transcript item with the item's rowid. Triggers keep it in step in the transaction
 *   that writes the transcript: a message is indexed when it is written final or when its stream
 *   ends (never on every streamed delta), and dropped with its item. A start rebuilds nothing; only
 *   this migration indexes the messages already there, once.
 * - `session_preferences`: a session's own instructions and model settings (JSON, validated by the
 *   runtime), removed with the session.
 * - `connection_model_settings`: a connection's default model settings (JSON).
 */
export const migration021ChatEssentials: Migration = {
  version: 21,
  name: 'chat-essentials',
  up: `
    CREATE VIRTUAL TABLE message_search USING fts5 (text, tokenize = 'porter unicode61');

    CREATE TRIGGER message_search_on_insert AFTER INSERT ON transcript_items
      WHEN NEW.kind IN ('user_message', 'assistant_message') AND NEW.state = 'final' BEGIN
      INSERT INTO message_search (rowid, text) VALUES (NEW.rowid, NEW.text);
    END;
    CREATE TRIGGER message_search_on_final AFTER UPDATE OF state ON transcript_items
      WHEN NEW.kind IN ('user_message', 'assistant_message') AND OLD.state = 'streaming' AND NEW.state = 'final' BEGIN
      INSERT INTO message_search (rowid, text) VALUES (NEW.rowid, NEW.text);
    END;
    CREATE TRIGGER message_search_on_delete AFTER DELETE ON transcript_items
      WHEN OLD.kind IN ('user_message', 'assistant_message') BEGIN
      DELETE FROM message_search WHERE rowid = OLD.rowid;
    END;
    INSERT INTO message_search (rowid, text)
      SELECT rowid, text FROM transcript_items WHERE kind IN ('user_message', 'assistant_message') AND state = 'final';

    CREATE TABLE session_preferences (
      session_id TEXT PRIMARY KEY REFERENCES sessions (session_id) ON DELETE CASCADE,
      instructions TEXT NOT NULL DEFAULT '',
      model_settings TEXT NOT NULL DEFAULT '{}',
      updated_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE connection_model_settings (
      connection_id TEXT PRIMARY KEY,
      model_settings TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
  `,
};
