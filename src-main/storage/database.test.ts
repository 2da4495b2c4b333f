import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/host-fixture';
import { DATABASE_FILE, migrate, openDatabase, schemaVersion } from './database';
import { MIGRATIONS } from './migrations';

describe('openDatabase', () => {
  const dir = useTempDirs();

  it('applies every migration, in WAL mode with foreign keys on', () => {
    const db = openDatabase(dir());
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(['sessions', 'turns', 'runs', 'ledger', 'transcript_items', 'queued_messages']),
    );
    db.close();
  });

  it('lists the migrations in strictly increasing version order (the runner applies them in list order)', () => {
    const versions = MIGRATIONS.map((migration) => migration.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('is idempotent: reopening applies nothing twice', () => {
    const path = dir();
    openDatabase(path).close();
    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)?.version);
    db.close();
  });

  it('refuses a database written by a newer schema, naming both versions', () => {
    const path = dir();
    const raw = new Database(join(path, DATABASE_FILE));
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openDatabase(path)).toThrow(new RegExp(`schema 999.*up to ${MIGRATIONS.at(-1)?.version ?? 0}`));
  });

  it('rolls a failing migration back whole', () => {
    const db = new Database(':memory:');
    const broken = [{ version: 1, name: 'broken', up: 'CREATE TABLE a (x INTEGER); CREATE TABLE a (y INTEGER);' }];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'a'").pluck().get()).toBe(0);
  });
});
