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
  'turn.start': ({ runtime }, { attachmentIds, skillId, ...input }) => {
    const attachments =
      attachmentIds === undefined || attachmentIds.length === 0
        ? null
        : runtime.attachments.forMessage(input.sessionId, attachmentIds);
    if (attachments !== null && !attachments.ok) return attachments;
    const request = attachments === null ? input : { ...input, attachments: attachments.result };
    return skillId === undefined ? runtime.turns.start(request) : startTurnWithSkill(runtime, { ...request, skillId });
  },
  'turn.stop': ({ runtime }, input, ctx) =>
    runtime.turns.stop(input.sessionId, input.turnId, input.source ?? DEFAULT_STOP_SOURCE, ctx.device?.name ?? null),
  'turn.query': ({ runtime }, input) => runtime.turns.query(input.sessionId, input.turnId),
  'turn.resume': ({ runtime }, input) => runtime.turns.resume(input.sessionId, input.turnId),
  'turn.message.submit': ({ runtime }, { attachmentIds, ...input }) => {
    // The files are checked now, against the session's model as it is, and travel with the message.
    const attachments =
      attachmentIds === undefined || attachmentIds.length === 0
        ? null
        : runtime.attachments.forMessage(input.sessionId, attachmentIds);
    if (attachments !== null && !attachments.ok) return attachments;
    return runtime.turns.submitMessage(
      input.sessionId,
      input.messageId,
      input.text,
      attachments === null ? {} : { attachments: attachments.result },
    );
  },
  'turn.message.edit': ({ runtime }, input) => runtime.turns.editMessage(input.sessionId, input.messageId, input.text),
  'turn.message.remove': ({ runtime }, input) => runtime.turns.removeMessage(input.sessionId, input.messageId),
  'turn.message.query': ({ runtime }, input) => {
    const messages = runtime.turns.messages(input.sessionId, input.messageIds);
    return messages === null ? fail('not_found', 'That session does not exist.') : ok({ messages });
  },
};
