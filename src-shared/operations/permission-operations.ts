import { z } from 'zod';
import type { PermissionGrant } from '../interaction-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

export interface PermissionGrantsResult {
  readonly sessionId: string;
  /** The tools the session may use without asking, newest grant first. */
  readonly grants: readonly PermissionGrant[];
  /** Network hosts the session's sandboxed commands may reach beyond the global list ("Allow for this session" on a blocked host). */
  readonly hosts: readonly string[];
}

/** The person's sandbox lists (global), as saved. */
export interface SandboxSettingsResult {
  readonly allowedHosts: readonly string[];
  readonly writableFolders: readonly string[];
  readonly deniedPaths: readonly string[];
}

/** The "Allow for this session" grants a session holds (tools, and network hosts): seen and taken back. */
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
  /** Takes a host off the session's network allowlist: the next command reaching it is blocked (and asks) again. */
  'permission.hosts.remove': defineOperation<PermissionGrantsResult>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, host: wellFormedString().min(1).max(300) }),
    errors: ['not_found'],
  }),
  /** Settings → Sandbox: hosts every session's commands may reach, extra writable folders, extra denied paths. */
  'sandbox.settings.get': defineOperation<SandboxSettingsResult>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /** Replaces the three lists, applied to the next command. Any wrong entry saves nothing and is named (`invalid_input`). */
  'sandbox.settings.set': defineOperation<SandboxSettingsResult>()({
    mode: 'command',
    input: z.strictObject({
      allowedHosts: z.array(wellFormedString().max(300)).max(500),
      writableFolders: z.array(wellFormedString().max(4096)).max(200),
      deniedPaths: z.array(wellFormedString().max(4096)).max(500),
    }),
    errors: ['invalid_input'],
  }),
} as const;
