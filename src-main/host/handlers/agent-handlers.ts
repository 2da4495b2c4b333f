import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const agentHandlers: HandlerTable<'agent.tree' | 'agent.stop' | 'agent.definitions' | 'agent.links'> = {
  'agent.tree': ({ runtime }, input) => runtime.agents.tree(input.sessionId),
  'agent.stop': ({ runtime }, input) =>
    runtime.agents.stopTree(input.rootSessionId, input.expectedTreeId, input.source ?? 'stop_button'),
  'agent.definitions': ({ runtime }, input) => {
    if (runtime.sessions.get(input.sessionId).ok === false) return fail('not_found', 'That session does not exist.');
    const { definitions, broken } = runtime.agents.catalog(input.sessionId);
    return ok({
      definitions: definitions.map(({ systemPrompt: _prompt, readOnly: _readOnly, ...summary }) => summary),
      broken,
    });
  },
  'agent.links': ({ runtime }) => ok({ links: runtime.agents.links() }),
};
