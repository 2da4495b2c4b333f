import { z } from 'zod';
import type { HookList, HookTestResult } from '../hook-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

/** Where the hooks in effect are read for: a session's workspace, or a folder (a new session's). */
const scope = { sessionId: id.optional(), workspacePath: wellFormedString().min(1).max(4096).optional() };

export const hookOperations = {
  /** The hooks in effect for a session (global, Claude Code's user settings if opted in, the workspace's). */
  'hooks.list': defineOperation<HookList>()({
    mode: 'query',
    input: z.strictObject(scope),
    errors: ['not_found'],
  }),
  /** Trusts (or stops trusting) a workspace file's hooks exactly as they are: `hash` from `hooks.list`. */
  'hooks.trust': defineOperation<HookList>()({
    mode: 'command',
    input: z.strictObject({
      ...scope,
      path: wellFormedString().min(1).max(4096),
      hash: wellFormedString().regex(/^[0-9a-f]{64}$/),
      trusted: z.boolean(),
    }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'hooks.setEnabled': defineOperation<HookList>()({
    mode: 'command',
    input: z.strictObject({ ...scope, hookId: wellFormedString().regex(/^[0-9a-f]{16}$/), enabled: z.boolean() }),
    errors: ['not_found'],
  }),
  /** Whether `~/.claude/settings.json`'s hooks run too (off until the person opts in). */
  'hooks.configure': defineOperation<HookList>()({
    mode: 'command',
    input: z.strictObject({ ...scope, useClaudeUserSettings: z.boolean() }),
    errors: ['not_found'],
  }),
  /** Runs one hook with a sample event of its kind; nothing is recorded or decided. */
  'hooks.test': defineOperation<HookTestResult>()({
    mode: 'command',
    input: z.strictObject({ ...scope, hookId: wellFormedString().regex(/^[0-9a-f]{16}$/) }),
    errors: ['not_found'],
  }),
} as const;
