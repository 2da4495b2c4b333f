import type { Db } from './database';

/** What a session keeps of its own: instructions, and model settings as stored JSON. */
export interface StoredSessionPreferences {
  readonly instructions: string;
  readonly modelSettings: unknown;
}

/**
 * Instructions and model settings: per session (`session_preferences`, removed with the session) and
 * a connection's defaults (`connection_model_settings`). Values are validated by the runtime; this
 * store keeps them as JSON.
 */
export interface ChatPreferencesStore {
  session(sessionId: string): StoredSessionPreferences | null;
  setSession(sessionId: string, preferences: { instructions: string; modelSettings: unknown }, now: number): void;
  connectionModelSettings(connectionId: string): unknown;
  setConnectionModelSettings(connectionId: string, modelSettings: unknown, now: number): void;
}

export function createChatPreferencesStore(db: Db): ChatPreferencesStore {
  const getSession = db.prepare<[string], { instructions: string; model_settings: string }>(
    'SELECT instructions, model_settings FROM session_preferences WHERE session_id = ?',
  );
  const putSession = db.prepare(`
    INSERT INTO session_preferences (session_id, instructions, model_settings, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (session_id) DO UPDATE SET instructions = excluded.instructions, model_settings = excluded.model_settings, updated_at = excluded.updated_at`);
  const getConnection = db.prepare<[string], string>(
    'SELECT model_settings FROM connection_model_settings WHERE connection_id = ?',
  );
  const putConnection = db.prepare(`
    INSERT INTO connection_model_settings (connection_id, model_settings, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (connection_id) DO UPDATE SET model_settings = excluded.model_settings, updated_at = excluded.updated_at`);
  return {
    session(sessionId) {
      const row = getSession.get(sessionId);
      return row === undefined
        ? null
        : { instructions: row.instructions, modelSettings: JSON.parse(row.model_settings) as unknown };
    },
    setSession(sessionId, { instructions, modelSettings }, now) {
      putSession.run(sessionId, instructions, JSON.stringify(modelSettings), now);
    },
    connectionModelSettings(connectionId) {
      const value = getConnection.pluck().get(connectionId);
      return value === undefined ? null : (JSON.parse(value) as unknown);
    },
    setConnectionModelSettings(connectionId, modelSettings, now) {
      putConnection.run(connectionId, JSON.stringify(modelSettings), now);
    },
  };
}
