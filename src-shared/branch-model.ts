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
  /** The turns of this session that have more than one version in its branch family. */
  readonly versions: readonly TurnVersions[];
}

/** How a version of a turn came to be: the first one asked, or a branch's own turn. */
export type TurnVersionOrigin = 'original' | BranchMode;

/** One version of a turn across a session's branch family (the original or a branch made at that point). */
export interface TurnVersion {
  /** The session to open to see it (the open session for its own version). */
  readonly sessionId: string;
  readonly turnId: string;
  /** That turn's message from the person and its last answer in that session (null while it has none). */
  readonly messageItemId: string | null;
  readonly answerItemId: string | null;
  readonly origin: TurnVersionOrigin;
  readonly createdAt: number;
}

/**
 * The versions of one of this session's turns ("‹ 2 / 3 ›"): every turn at the same point of the
 * branch family after the same conversation, in order of creation; `index` is this session's.
 */
export interface TurnVersions {
  readonly turnId: string;
  readonly index: number;
  readonly versions: readonly TurnVersion[];
}
