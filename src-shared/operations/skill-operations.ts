import { z } from 'zod';
import { PERMISSION_MODES } from '../model';
import type { SkillListResult } from '../skill-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const skillOperations = {
  /** The skills of a session, or of a new session being prepared: which the agent can load, and why not the others. */
  'skill.list': defineOperation<SkillListResult>()({
    mode: 'query',
    input: z.strictObject({
      target: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('session'), sessionId: id }),
        z.strictObject({
          kind: z.literal('new_session'),
          workspacePath: wellFormedString().min(1).max(4096).nullable(),
          permissionMode: z.enum(PERMISSION_MODES),
          connectionId: id.optional(),
        }),
      ]),
    }),
    errors: ['not_found', 'session_archived'],
  }),
} as const;
