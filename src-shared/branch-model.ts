/** Branches: a session that copies another's conversation up to a message, then goes its own way. */
export const BRANCH_MODES = ['edit', 'regenerate', 'rewind'] as const;
export type BranchMode = (typeof BRANCH_MODES)[number];
/** What `session.branch` makes; a `rewind` branch is made by `session.rewind`, with the files. */
export const BRANCH_REQUEST_MODES = ['edit', 'regenerate'] as const;
export type BranchRequestMode = (typeof BRANCH_REQUEST_MODES)[number];

/** Where a branch came from ("Branched from …"). */
export interface BranchOrigin {
  readonly sourceSessionId: string;
  /** The source's title now; null when the source session was deleted since. */
  readonly sourceTitle: string | null;
  /** The source's message the branch was made at: the person's message edited or rewound to, or the answer regenerated. */
  readonly atItemId: string;
  readonly mode: BranchMode;
  /** `copying` while the conversation is still being copied (a restart finishes it). */
  readonly state: 'copying' | 'ready';
  readonly createdAt: number;
}

/** A branch made from one of a session's messages ("branched here"). */
export interface BranchPoint {
  readonly branchSessionId: string;
  readonly title: string;
  readonly atItemId: string;
  readonly mode: BranchMode;
  readonly createdAt: number;
}

export interface SessionBranches {
  readonly branchedFrom: BranchOrigin | null;
  readonly branches: readonly BranchPoint[];
}
