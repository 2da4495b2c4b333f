import { z } from 'zod';
import type { HostVitals } from '../storage-model';
import { defineOperation } from './define-operation';

/** How the host holds up over time: its vitals (docs/headless-host.md). */
export const storageOperations = {
  'host.vitals': defineOperation<HostVitals>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
};
