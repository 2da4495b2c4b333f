import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const contextHandlers: HandlerTable<'context.meter' | 'context.windows.get' | 'context.windows.set'> = {
  'context.meter': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ meter: runtime.context.meterOf(input.sessionId) });
  },
  'context.windows.get': ({ runtime }) => ok(runtime.context.windowSettings()),
  'context.windows.set': ({ runtime }, input) =>
    runtime.context.setWindow(
      { connectionId: input.connectionId, modelId: input.modelId, window: input.window },
      input.expectedRevision,
    ),
};
