import { isAbsolute, relative } from 'node:path';
import type { WorktreeRecord, WorktreeState } from '../../src-shared/worktree-model';
import type { Db } from './database';

export type NewWorktree = Omit<WorktreeRecord, 'state' | 'endedAt'>;

/** Worktree records: one active worktree per session at most; ended ones are kept as history. */
export interface WorktreeStore {
  insert(worktree: NewWorktree): WorktreeRecord;
  get(worktreeId: string): WorktreeRecord | null;
  activeFor(sessionId: string): WorktreeRecord | null;
  active(): WorktreeRecord[];
  /** The session's newest worktree, in any state. */
  latestFor(sessionId: string): WorktreeRecord | null;
  /** The newest worktree whose folder is `folder` or holds it, in any state. */
  containing(folder: string): WorktreeRecord | null;
  /** Every repository checkout a worktree was ever made from. */
  repoRoots(): string[];
  /** Ends an active worktree; false when it was not active. */
  end(worktreeId: string, state: Exclude<WorktreeState, 'active'>, now: number): boolean;
  /** Records the branch's new name (renamed when the session's title arrived). */
  setBranch(worktreeId: string, branch: string): WorktreeRecord | null;
}

interface WorktreeRow {
  worktree_id: string;
  session_id: string;
  repo_root: string;
  base_branch: string;
  base_commit: string;
  branch: string;
  path: string;
  state: WorktreeState;
  created_at: number;
  ended_at: number | null;
}

const toRecord = (row: WorktreeRow): WorktreeRecord => ({
  worktreeId: row.worktree_id,
  sessionId: row.session_id,
  repoRoot: row.repo_root,
  baseBranch: row.base_branch,
  baseCommit: row.base_commit,
  branch: row.branch,
  path: row.path,
  state: row.state,
  createdAt: row.created_at,
  endedAt: row.ended_at,
});

export function createWorktreeStore(db: Db): WorktreeStore {
  const insert = db.prepare(
    `INSERT INTO worktrees (worktree_id, session_id, repo_root, base_branch, base_commit, branch, path, state, created_at)
     VALUES (@worktreeId, @sessionId, @repoRoot, @baseBranch, @baseCommit, @branch, @path, 'active', @createdAt)`,
  );
  const byId = db.prepare<[string], WorktreeRow>('SELECT * FROM worktrees WHERE worktree_id = ?');
  const activeFor = db.prepare<[string], WorktreeRow>(
    "SELECT * FROM worktrees WHERE session_id = ? AND state = 'active'",
  );
  const active = db.prepare<[], WorktreeRow>(
    "SELECT * FROM worktrees WHERE state = 'active' ORDER BY created_at, worktree_id",
  );
  const latestFor = db.prepare<[string], WorktreeRow>(
    'SELECT * FROM worktrees WHERE session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const newestFirst = db.prepare<[], WorktreeRow>('SELECT * FROM worktrees ORDER BY created_at DESC, rowid DESC');
  const repoRoots = db.prepare<[], string>('SELECT DISTINCT repo_root FROM worktrees ORDER BY repo_root').pluck();
  const end = db.prepare(
    "UPDATE worktrees SET state = @state, ended_at = @now WHERE worktree_id = @worktreeId AND state = 'active'",
  );
  const setBranch = db.prepare('UPDATE worktrees SET branch = ? WHERE worktree_id = ?');
  const get = (worktreeId: string) => {
    const row = byId.get(worktreeId);
    return row === undefined ? null : toRecord(row);
  };
  return {
    insert(worktree) {
      insert.run(worktree);
      const record = get(worktree.worktreeId);
      if (record === null) throw new Error(`Worktree ${worktree.worktreeId} vanished after insert`);
      return record;
    },
    get,
    activeFor(sessionId) {
      const row = activeFor.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    active: () => active.all().map(toRecord),
    latestFor(sessionId) {
      const row = latestFor.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    containing(folder) {
      const row = newestFirst.all().find((candidate) => {
        const inside = relative(candidate.path, folder);
        return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
      });
      return row === undefined ? null : toRecord(row);
    },
    repoRoots: () => repoRoots.all(),
    end: (worktreeId, state, now) => end.run({ worktreeId, state, now }).changes === 1,
    setBranch(worktreeId, branch) {
      setBranch.run(branch, worktreeId);
      return get(worktreeId);
    },
  };
}
