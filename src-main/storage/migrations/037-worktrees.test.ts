import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../database';
import { MIGRATIONS } from './index';

describe('migration 37: worktrees', () => {
  it('upgrades a database at 36, allows one active worktree per session and only the known states', () => {
    const db = new Database(':memory:');
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 36),
    );
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version <= 37),
    );
    expect(schemaVersion(db)).toBe(37);
    const insert = db.prepare(
      "INSERT INTO worktrees (worktree_id, session_id, repo_root, base_branch, base_commit, branch, path, state, created_at) VALUES (?, 's1', '/r', 'main', 'abc', 'cairn/x', '/w', ?, 1)",
    );
    insert.run('w1', 'active');
    expect(() => insert.run('w2', 'active')).toThrow();
    insert.run('w3', 'merged');
    expect(() => insert.run('w4', 'lost')).toThrow();
  });
});
