import { fail, ok } from '../../../src-shared/errors';
import { startTurnWithSkill } from '../../runtime/skills/start-turn-with-skill';
import type { HandlerTable } from '../handler';

export const DEFAULT_STOP_SOURCE = 'stop_button';

export const turnHandlers: HandlerTable<
  | 'turn.start'
  | 'turn.stop'
  | 'turn.query'
  | 'turn.resume'
  | 'turn.message.submit'
  | 'turn.message.edit'
  | 'turn.message.remove'
  | 'turn.message.query'
> = {
  'turn.start': ({ runtime }, { skillId, ...input }) =>
    skillId === undefined ? runtime.turns.start(input) : startTurnWithSkill(runtime, { ...input, skillId }),
  'turn.stop': ({ runtime }, input, ctx) =>
    runtime.turns.stop(input.sessionId, input.turnId, input.source ?? DEFAULT_STOP_SOURCE, ctx.device?.name ?? null),
  'turn.query': ({ runtime }, input) => runtime.turns.query(input.sessionId, input.turnId),
  'turn.resume': ({ runtime }, input) => runtime.turns.resume(input.sessionId, input.turnId),
  'turn.message.submit': ({ runtime }, { sessionId, messageId, text, attachmentIds }) =>
    runtime.turns.submitMessage(sessionId, messageId, text, attachmentIds === undefined ? {} : { attachmentIds }),
  'turn.message.edit': ({ runtime }, input) => runtime.turns.editMessage(input.sessionId, input.messageId, input.text),
  'turn.message.remove': ({ runtime }, input) => runtime.turns.removeMessage(input.sessionId, input.messageId),
  'turn.message.query': ({ runtime }, input) => {
    const messages = runtime.turns.messages(input.sessionId, input.messageIds);
    return messages === null ? fail('not_found', 'That session does not exist.') : ok({ messages });
  },
};
