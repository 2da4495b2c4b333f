/** Isolated worktrees: a session working in a `git worktree` of its own, on a branch of its own. */

export const WORKTREE_STATES = ['active', 'merged', 'discarded'] as const;
export type WorktreeState = (typeof WORKTREE_STATES)[number];

export interface WorktreeRecord {
  readonly worktreeId: string;
  readonly sessionId: string;
  /** The checkout the worktree branched from and merges back into: the person's repository, or a parent session's worktree. */
  readonly repoRoot: string;
  /** The branch merge back lands on, and the commit it pointed at when the worktree was made. */
  readonly baseBranch: string;
  readonly baseCommit: string;
  /** The worktree's own branch, `cairn/<title>-<id>`. */
  readonly branch: string;
  /** Where the worktree is (under the data directory, never inside the person's repository). */
  readonly path: string;
  readonly state: WorktreeState;
  readonly createdAt: number;
  readonly endedAt: number | null;
}

export interface WorktreeFile {
  readonly path: string;
  readonly change: 'created' | 'modified' | 'deleted';
}

export interface WorktreeStatus {
  readonly worktree: WorktreeRecord;
  /** Commits on the worktree's branch not on the base branch, and the other way round. */
  readonly ahead: number;
  readonly behind: number;
  /** Files that differ from where the branch left the base (committed or not). */
  readonly files: readonly WorktreeFile[];
  /** Whether the folder is still there. */
  readonly present: boolean;
}

export interface WorktreeDiff {
  readonly worktree: WorktreeRecord;
  readonly files: readonly (WorktreeFile & { readonly diff: string })[];
}

export type WorktreeMergeResult =
  /** The base branch now holds the session's work; the worktree is removed and the session works in `repoRoot` again. */
  | {
      readonly status: 'merged';
      readonly mode: 'fast_forward' | 'merge_commit';
      readonly commit: string;
      readonly worktree: WorktreeRecord;
    }
  /** Nothing was written to the base checkout: these files conflict (`merge`), or have uncommitted changes there (`uncommitted`). */
  | { readonly status: 'conflict'; readonly reason: 'merge' | 'uncommitted'; readonly files: readonly string[] };

export type WorktreeUpdateResult =
  | { readonly status: 'updated'; readonly commit: string }
  /** The base was merged into the worktree; these files hold conflict markers to resolve there. */
  | { readonly status: 'conflict'; readonly files: readonly string[] };

/** A worktree found at start with no session working in it, or a record whose folder is gone. */
export interface WorktreeLeftover {
  readonly path: string;
  readonly reason: 'no_session' | 'unknown_folder' | 'folder_missing';
  readonly worktree: WorktreeRecord | null;
}
