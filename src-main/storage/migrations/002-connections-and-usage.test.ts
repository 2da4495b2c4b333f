import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { migration001Initial } from './001-initial';
import { migration002ConnectionsAndUsage } from './002-connections-and-usage';

describe('migration 2: connections and usage', () => {
  it('upgrades a version-1 database and keeps its sessions', () => {
    const db = new Database(':memory:');
    migrate(db, [migration001Initial]);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'Kept', 'user', 'offline-demo', 'ask', 1, 0, 0)",
    ).run();
    migrate(db, [migration001Initial, migration002ConnectionsAndUsage]);
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare('SELECT title FROM sessions').pluck().get()).toBe('Kept');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['connections', 'settings', 'usage_records']));
  });
});
