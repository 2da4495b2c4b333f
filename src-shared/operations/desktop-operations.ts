import { z } from 'zod';
import { defineOperation } from './define-operation';

/** Things only the desktop app can do; the headless host answers `operation_unavailable`. */
export const desktopOperations = {
  /** Opens the OS folder picker (for a session's workspace); null when the person cancels. */
  'workspace.pickFolder': defineOperation<{ path: string | null }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: ['operation_unavailable'],
  }),
} as const;
