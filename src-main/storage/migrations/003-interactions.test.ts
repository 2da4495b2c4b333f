import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { migration001Initial } from './001-initial';
import { migration002ConnectionsAndUsage } from './002-connections-and-usage';
import { migration003Interactions } from './003-interactions';

describe('migration 3: interactions', () => {
  it('upgrades a version-2 database and keeps its rows', () => {
    const db = new Database(':memory:');
    migrate(db, [migration001Initial, migration002ConnectionsAndUsage]);
    db.prepare("INSERT INTO settings (key, value) VALUES ('catalog_revision', '4')").run();
    migrate(db, [migration001Initial, migration002ConnectionsAndUsage, migration003Interactions]);
    expect(schemaVersion(db)).toBe(3);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'catalog_revision'").pluck().get()).toBe('4');
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'interactions'").pluck().get()).toBe('interactions');
  });
});
