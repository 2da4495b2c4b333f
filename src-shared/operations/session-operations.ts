import type { LiveRunProgress } from '../run-progress';
import { z } from 'zod';
import { wellFormedString } from '../well-formed-string';
import type { HostInfo, QueuedMessage, SessionRecord, TranscriptPage, TurnSummary } from '../model';
import { PERMISSION_MODES } from '../model';
import { defineOperation } from './define-operation';
import { id, title } from './fields';

export interface SessionListResult {
  readonly sessions: readonly SessionRecord[];
  readonly nextCursor: string | null;
}

export interface SessionSnapshot {
  readonly session: SessionRecord;
  readonly transcript: TranscriptPage;
  readonly activeTurn: TurnSummary | null;
  readonly queue: readonly QueuedMessage[];
  /** What the live run waits on right now (its provider, a retry); null when nothing waits. */
  readonly runProgress: LiveRunProgress | null;
}

export const sessionOperations = {
  'host.info': defineOperation<HostInfo>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'session.create': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({
      title: title.optional(),
      workspacePath: wellFormedString().min(1).max(4096).optional(),
      connectionId: id.optional(),
      model: wellFormedString().min(1).max(200).optional(),
      permissionMode: z.enum(PERMISSION_MODES).optional(),
      /** Work in a worktree of its own (`worktree.create`); the folder must be inside a git repository. */
      ownWorktree: z.boolean().optional(),
    }),
    // With `ownWorktree`, its worktree is made after the session: removed or busy in between, it is not made.
    errors: ['invalid_input', 'operation_unavailable', 'not_found', 'session_busy'],
  }),
  'session.list': defineOperation<SessionListResult>()({
    mode: 'query',
    input: z.strictObject({
      archived: z.boolean().optional(),
      query: wellFormedString().max(200).optional(),
      cursor: wellFormedString().max(400).optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    errors: ['invalid_input'],
  }),
  'session.get': defineOperation<SessionSnapshot>()({
    mode: 'query',
    input: z.strictObject({
      sessionId: id,
      /** The transcript page around this position (a search hit being opened) instead of the newest. */
      around: z.number().int().min(0).optional(),
    }),
    errors: ['not_found'],
  }),
  'session.rename': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, title, expectedRevision: z.number().int().min(0).optional() }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'session.archive': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, archived: z.boolean() }),
    // The WorkHub cannot be archived.
    errors: ['not_found', 'operation_unavailable'],
  }),
  'session.remove': defineOperation<{ sessionId: string; removed: true }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id }),
    // The WorkHub cannot be deleted.
    errors: ['not_found', 'operation_unavailable'],
  }),
  'session.configure': defineOperation<{ session: SessionRecord }>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      connectionId: id.optional(),
      /** A model of the connection, or null for the connection's default. */
      model: wellFormedString().trim().min(1).max(200).nullable().optional(),
      permissionMode: z.enum(PERMISSION_MODES).optional(),
      /** A folder on the host for the session's file and shell tools, or null for none. */
      workspacePath: wellFormedString().min(1).max(4096).nullable().optional(),
      expectedRevision: z.number().int().min(0).optional(),
    }),
    errors: ['not_found', 'revision_conflict', 'invalid_input', 'session_archived'],
  }),
  'transcript.page': defineOperation<TranscriptPage>()({
    mode: 'query',
    input: z
      .strictObject({
        sessionId: id,
        before: z.number().int().min(0).optional(),
        /** The page after this position (oldest first), to read newer messages from a window around a search hit. */
        after: z.number().int().min(-1).optional(),
        /** The page around this position (a third of it from the position on, the rest before), for a search hit. */
        around: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .refine((input) => [input.before, input.after, input.around].filter((value) => value !== undefined).length <= 1, {
        message: 'Give at most one of before, after and around',
      }),
    errors: ['not_found'],
  }),
} as const;
