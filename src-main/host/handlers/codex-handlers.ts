import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const codexHandlers: HandlerTable<
  'codex.turnResults' | 'codex.status' | 'codex.forceStop' | 'codex.chooseThread'
> = {
  'codex.turnResults': ({ runtime }, input) => {
    if (runtime.turns.query(input.sessionId, input.turnId).ok !== true)
      return fail('not_found', 'That turn does not exist.');
    return ok({ results: runtime.codexResults(input.sessionId, input.turnId) });
  },
  'codex.status': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({
      quarantine: runtime.codex.quarantineOf(input.sessionId),
      threadProblem: runtime.codexThreads.problem(input.sessionId),
    });
  },
  'codex.forceStop': async ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return ok({ stopped: await runtime.codex.forceStop(input.sessionId) });
  },
  'codex.chooseThread': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok !== true) return fail('not_found', 'That session does not exist.');
    return runtime.codexThreads.choose(input.sessionId, input.threadId, input.choice);
  },
};
