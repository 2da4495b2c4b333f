import { z } from 'zod';
import type { ShellRunRecord } from '../shell-run-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

export const shellOperations = {
  'shell.list': defineOperation<{ shellRuns: readonly ShellRunRecord[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, limit: z.number().int().min(1).max(500).optional() }),
    errors: ['not_found'],
  }),
  'shell.get': defineOperation<{ shellRun: ShellRunRecord }>()({
    mode: 'query',
    input: z.strictObject({ shellRunId: id }),
    errors: ['not_found'],
  }),
  /** Stops one command: its whole process group is killed and the record says `killed`. */
  'shell.kill': defineOperation<{ shellRun: ShellRunRecord; killed: boolean }>()({
    mode: 'command',
    input: z.strictObject({ shellRunId: id }),
    errors: ['not_found'],
  }),
} as const;
