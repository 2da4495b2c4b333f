import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const acpHandlers: HandlerTable<'acp.agent'> = {
  'acp.agent': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ agent: runtime.acpAgentOf(input.sessionId) });
  },
};
