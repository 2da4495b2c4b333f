import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../database';
import { MIGRATIONS } from './index';

describe('migration 20: automations', () => {
  it('adds the task and firing tables to a version-14 database, and a firing id is recorded once', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 14),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 20),
    );
    db.exec(`INSERT INTO automation_tasks (task_id, title, prompt, target, schedule, time_zone, effect, catch_up_minutes, enabled, anchor_at, cursor_at, revision, created_at, updated_at)
      VALUES ('t', 'T', 'p', '{}', '{}', 'UTC', 'turn', 60, 1, 0, 0, 1, 0, 0)`);
    const insert =
      db.prepare(`INSERT OR IGNORE INTO automation_firings (firing_id, task_id, slot_at, recorded_at, status, catch_up, collapsed_slots, manual, prompt, updated_at)
      VALUES ('t:1', 't', 1, 1, 'pending', 0, 0, 0, 'p', 1)`);
    expect(insert.run().changes).toBe(1);
    expect(insert.run().changes).toBe(0);
  });
});
