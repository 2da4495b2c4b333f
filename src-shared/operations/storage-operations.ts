import { z } from 'zod';
import type { HostVitals, StorageReclaimProgress, StorageUsage } from '../storage-model';
import { defineOperation } from './define-operation';

/** How the host holds up over time: its vitals, and the data directory's size (docs/headless-host.md). */
export const storageOperations = {
  'host.vitals': defineOperation<HostVitals>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'storage.usage': defineOperation<StorageUsage>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /** Compacts the database in the background; refused while a turn runs. Progress and the end come as `storage.changed`. */
  'storage.reclaim': defineOperation<{ readonly reclaim: StorageReclaimProgress }>()({
    mode: 'command',
    input: z.strictObject({}),
    errors: ['session_busy'],
  }),
};
