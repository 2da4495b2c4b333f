import type { SessionRecord } from './model';

/** Per-turn file checkpoints: what a turn (or a revert) changed in a session's workspace. */

export const FILE_CHANGES = ['created', 'modified', 'deleted'] as const;
export type FileChange = (typeof FILE_CHANGES)[number];

/**
 * Who changed a file: Cairn's own file tools (exact), a `run_shell` command, a native agent (Codex)
 * seen by comparing the workspace before and after, a revert, or something else during the turn.
 */
export type ChangeWriter =
  | { readonly kind: 'file_tool'; readonly tool: string }
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'native_agent' }
  | { readonly kind: 'revert' }
  | { readonly kind: 'unknown' };

export interface FileChangeRecord {
  readonly path: string;
  readonly change: FileChange;
  /** Lines added and removed; null for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
  readonly writer: ChangeWriter;
}

/**
 * `open`: the checkpoint before the change exists, the turn has not ended. `complete`: both ends are
 * recorded. `absent`: the host stopped before the checkpoint was written, so nothing can be reverted.
 */
export type ChangeSetStatus = 'pending' | 'open' | 'complete' | 'absent';

export type ChangeSetOrigin = 'turn' | 'revert' | 'rewind';

export interface ChangeSetRecord {
  readonly changeSetId: string;
  readonly sessionId: string;
  readonly turnId: string;
  /**
   * A turn's changes, a revert, or a rewind (the files of every turn from `turnId` on put back, in the
   * branch the rewind made). Reverts and rewinds are revertible too: reverting one undoes it.
   */
  readonly origin: ChangeSetOrigin;
  /** The change set this revert undid, for a revert. */
  readonly revertsChangeSetId: string | null;
  readonly status: ChangeSetStatus;
  /** Why a change set is absent, or a note on files left out (too large). */
  readonly note: string | null;
  readonly files: readonly FileChangeRecord[];
  readonly createdAt: number;
  readonly completedAt: number | null;
}

/** A file as `changes.list` and `changes.files` give it: `writer` is its index in the answer's `writers`. */
export interface ListedFileChange extends Omit<FileChangeRecord, 'writer'> {
  readonly writer: number;
}

/** How many of a change set's files `changes.list` carries (the first, by path); `changes.files` reads the rest. */
export const LISTED_FILES = 30;

/** The most files one `changes.files` answer carries. */
export const FILES_PAGE = 1000;

/**
 * A change set as `changes.list` gives it: its first `LISTED_FILES` files by path (as the Changes
 * panel shows them) with their change and line counts, and totals for all of them, so a listing
 * costs the same for a 1,000-file turn as for a 10-file one; `changes.files` reads the rest and
 * `changes.diff` one file's diff. Each distinct writer is sent once (a command line shared by a
 * thousand files would otherwise be repeated a thousand times); a file names its writer by index.
 */
export interface ListedChangeSet extends Omit<ChangeSetRecord, 'files'> {
  /** The first files by path: all of them when `fileCount` ≤ `LISTED_FILES`. */
  readonly files: readonly ListedFileChange[];
  /** The writers of `files`, each once, in the order of their first file. */
  readonly writers: readonly ChangeWriter[];
  /** How many files the change set changed, and their lines added and removed in all (a binary file counts none). */
  readonly fileCount: number;
  readonly added: number;
  readonly removed: number;
  /**
   * The files a later change put back — for a turn, its reverts; for a revert or a rewind, its undos
   * (each counted while it is not undone itself): `all` of them, or these paths. Such a file offers no
   * Revert file, and an entry undone in full offers no Revert or Undo.
   */
  readonly undone: 'all' | readonly string[];
  /** The person's message that started the turn (null when the turn is gone). */
  readonly turnText: string | null;
  /**
   * Why nothing of this change set can be put back any more: the folder it was made in is gone (its
   * worktree was discarded or merged back). Null while the folder exists.
   */
  readonly workspaceGone: string | null;
}

/** A page of a change set's files, by path (`changes.files`). */
export interface ChangeFilesPage {
  readonly files: readonly ListedFileChange[];
  /** The writers of `files`, each once. */
  readonly writers: readonly ChangeWriter[];
  /** How many files the change set changed in all. */
  readonly fileCount: number;
}

/** One file's diff in a change set (`changes.diff`). */
export interface FileDiff {
  /** The unified diff from its `---` line (bounded); empty for a binary file or a checkpoint that is not complete. */
  readonly diff: string;
  /** Whether the diff was cut at its bound. */
  readonly cut: boolean;
}

/**
 * Keep mine: revert only the files the person has not changed since. Take checkpoint: revert all.
 * Open both: keep the person's files and write the checkpoint's version of each beside it
 * (`notes.md` → `notes.cairn-checkpoint.md`).
 */
export const CONFLICT_RESOLUTIONS = ['keep_mine', 'take_checkpoint', 'open_both'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];

export type RevertResult =
  | { readonly status: 'reverted'; readonly revert: ChangeSetRecord }
  /** Nothing to do: every file already is as it was before the change. */
  | { readonly status: 'nothing_to_revert' }
  /** The person changed these files since the checkpoint; nothing was written. */
  | { readonly status: 'conflict'; readonly files: readonly string[] };

export type RewindResult =
  /** The branch holding the conversation before the turn; `rewind` is the recorded file change (null when no file needed it). */
  | { readonly status: 'rewound'; readonly session: SessionRecord; readonly rewind: ChangeSetRecord | null }
  /** The person changed these files since the turns being rewound; nothing was written and no branch made. */
  | { readonly status: 'conflict'; readonly files: readonly string[] };

/**
 * What a rewind does to one file: `change` writes its earlier content back, `create` brings back a
 * file a later turn deleted, `delete` removes a file a later turn created.
 */
export const REWIND_FILE_ACTIONS = ['change', 'create', 'delete'] as const;
export type RewindFileAction = (typeof REWIND_FILE_ACTIONS)[number];

export interface RewindPlanFile {
  readonly path: string;
  readonly action: RewindFileAction;
  /** The person changed the file since the rewound turns: the rewind asks what to do with it. */
  readonly changedSince: boolean;
}

/** What Rewind to here would do to the files, found without writing anything (`session.rewindPlan`). */
export interface RewindPlan {
  /** The files that would be put back, by path; empty when only the conversation goes back. */
  readonly files: readonly RewindPlanFile[];
  /** False when the session has no workspace folder (the rewind is of the conversation only). */
  readonly hasWorkspace: boolean;
}
