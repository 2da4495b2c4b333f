import { z } from 'zod';
import type { SessionRecord } from '../model';
import type {
  WorktreeDiff,
  WorktreeLeftover,
  WorktreeMergeResult,
  WorktreeRecord,
  WorktreeStatus,
  WorktreeUpdateResult,
} from '../worktree-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

const folder = wellFormedString().min(1).max(4096);

export const worktreeOperations = {
  /** Whether a folder can give sessions worktrees (it is inside a git repository, on a branch); `reason` says why not. */
  'worktree.check': defineOperation<{ available: boolean; reason: string | null; baseBranch: string | null }>()({
    mode: 'query',
    input: z.strictObject({ workspacePath: folder }),
    errors: ['operation_unavailable'],
  }),
  /**
   * Gives the session its own worktree: a new branch `cairn/<title>-<id>` from its folder's current
   * branch, in a folder under the data directory, which becomes the session's workspace. A retry
   * answers with the worktree it has. Refused while a turn runs.
   */
  'worktree.create': defineOperation<{ worktree: WorktreeRecord; session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'invalid_input', 'session_busy', 'operation_unavailable'],
  }),
  /** The session's worktree (null when it has none) with its branch, commits ahead/behind the base and changed files. */
  'worktree.status': defineOperation<{ status: WorktreeStatus | null; unavailable: string | null }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** Every file the worktree changed since it left its base branch, committed or not, with its diff. */
  'worktree.diff': defineOperation<WorktreeDiff>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'operation_unavailable'],
  }),
  /**
   * Commits the worktree's work and brings it into the base branch (fast-forward or merge commit);
   * the worktree then goes and the session works in the base checkout. A conflict (or uncommitted
   * changes there to the same files) is answered with the files, and nothing is written.
   */
  'worktree.merge': defineOperation<WorktreeMergeResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'session_busy', 'operation_unavailable'],
  }),
  /** Merges the base branch into the worktree's branch, so a conflict is resolved in the worktree. */
  'worktree.update': defineOperation<WorktreeUpdateResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'session_busy', 'operation_unavailable'],
  }),
  /** The worktree's folder, to open or copy (the headless host has no shell to open it in). */
  'worktree.open': defineOperation<{ path: string }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'operation_unavailable'],
  }),
  /** Removes the worktree and its branch with whatever they hold; refused while a turn runs. A retry is done. */
  'worktree.discard': defineOperation<{ worktree: WorktreeRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found', 'session_busy', 'operation_unavailable'],
  }),
  /** Worktrees no session works in: left by a crash or a removed session, or whose folder vanished. */
  'worktree.leftovers': defineOperation<{ leftovers: WorktreeLeftover[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: ['operation_unavailable'],
  }),
  /** Removes one leftover worktree (named by its folder); answers with the leftovers still there. */
  'worktree.discardLeftover': defineOperation<{ leftovers: WorktreeLeftover[] }>()({
    mode: 'command',
    input: z.strictObject({ path: folder }),
    errors: ['operation_unavailable'],
  }),
  /** Keeps one leftover worktree as it is: it is not listed again, across restarts; answers with the leftovers still listed. */
  'worktree.keepLeftover': defineOperation<{ leftovers: WorktreeLeftover[] }>()({
    mode: 'command',
    input: z.strictObject({ path: folder }),
    errors: ['operation_unavailable'],
  }),
} as const;
