import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const compactionHandlers: HandlerTable<
  'session.compact' | 'session.summaries' | 'context.compaction.get' | 'context.compaction.set'
> = {
  'session.compact': ({ runtime }, input) => runtime.compaction.compactNow(input.sessionId),
  'session.summaries': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ summaries: runtime.compaction.list(input.sessionId) });
  },
  'context.compaction.get': ({ runtime }) => ok(runtime.compaction.settings()),
  'context.compaction.set': ({ runtime }, input) =>
    runtime.compaction.setThreshold(input.threshold, input.expectedRevision),
};
