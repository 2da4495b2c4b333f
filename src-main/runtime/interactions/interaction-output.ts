import {
  networkDecisionOf,
  permissionDecisionOf,
  type InteractionAnswer,
  type InteractionRequest,
} from '../../../src-shared/interaction-model';
import { maskAnswer } from '../../../src-shared/interaction-validation';

/**
 * The tool result an answer becomes: what the model reads (unmasked) and, with `masked`, what the
 * transcript keeps (secret answers replaced by a mask).
 */
export function interactionOutput(
  request: InteractionRequest,
  answer: InteractionAnswer,
  options: { masked: boolean },
): Record<string, unknown> {
  if (request.kind === 'permission') {
    const decision = permissionDecisionOf(answer);
    if (decision !== 'deny') return { action: 'allow', decision };
    const reason = answer.action === 'deny' ? answer.reason : undefined;
    return {
      action: 'deny',
      note: `The person did not allow this ${request.toolName} call, so it did not run. Do not retry it as it was; adjust or ask.`,
      ...(reason === undefined || reason === '' ? {} : { reason }),
    };
  }
  if (request.kind === 'network') {
    const decision = networkDecisionOf(answer);
    return { action: decision === 'deny' ? 'deny' : 'allow', decision, host: request.host };
  }
  if (answer.action === 'decline' || answer.action === 'deny')
    return { action: 'decline', note: 'The person declined to answer.' };
  if (answer.action === 'cancel')
    return { action: 'cancel', note: 'The person dismissed the question without answering.' };
  const shown = options.masked ? maskAnswer(request, answer) : answer;
  if (request.kind === 'form' && 'values' in shown) return { action: 'accept', values: shown.values };
  if (request.kind !== 'question' || !('answers' in shown)) return { action: 'accept' };
  return {
    action: 'accept',
    answers: request.questions.map((question) => {
      const given = shown.answers[question.id];
      const selected = question.options
        .filter((option) => given?.optionIds.includes(option.id))
        .map((option) => option.label);
      return {
        questionId: question.id,
        header: question.header,
        question: question.prompt,
        selected,
        ...(given?.text === undefined ? {} : { text: given.text }),
        ...(question.secret ? { secret: true } : {}),
      };
    }),
  };
}
