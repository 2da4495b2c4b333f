import { z } from 'zod';
import type { PermissionGrant } from '../interaction-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export interface PermissionGrantsResult {
  readonly sessionId: string;
  /** The tools the session may use without asking, newest grant first. */
  readonly grants: readonly PermissionGrant[];
}

/** The "Allow for this session" grants a session holds: seen and taken back. */
export const permissionOperations = {
  'permission.grants.list': defineOperation<PermissionGrantsResult>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** Takes back a tool's grant: its next call asks again. Revoking a grant that is already gone is not an error. */
  'permission.grants.revoke': defineOperation<PermissionGrantsResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, toolName: wellFormedString().min(1).max(200) }),
    errors: ['not_found'],
  }),
} as const;
