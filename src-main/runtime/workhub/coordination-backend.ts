import type { AgentBackend, AgentEvent, AgentRunInput } from '../contract/agent-backend';
import type { PendingChoice, WorkHubService } from './workhub-service';

/**
 * The WorkHub session's backend. Requests reach the WorkHub through workhub.route, not turns; what
 * runs here is the continuation after the person answered a "where should this go?" form: it
 * completes the action with their pick (a cancelled form does nothing).
 */
export function createCoordinationBackend(workhub: () => WorkHubService): AgentBackend {
  async function* run(input: AgentRunInput): AsyncGenerator<AgentEvent> {
    yield { type: 'step_started' };
    if (input.runKind !== 'continuation') {
      yield {
        type: 'text_delta',
        text: 'Tell the WorkHub what you want in its composer; it proposes where the request should go.',
      };
      return;
    }
    const ofTurn = input.history.filter((message) => message.turnId === input.turnId);
    const choice = ofTurn.find((message) => message.role === 'tool_call')?.data?.input as
      { workhubChoice?: PendingChoice } | undefined;
    const answer = ofTurn.filter((message) => message.role === 'tool_result').at(-1)?.data?.output as
      { action?: string; values?: { target?: unknown } } | undefined;
    if (
      choice?.workhubChoice === undefined ||
      answer?.action !== 'accept' ||
      typeof answer.values?.target !== 'string'
    ) {
      if (choice?.workhubChoice !== undefined) workhub().closeChoice(choice.workhubChoice);
      yield { type: 'text_delta', text: 'Cancelled — nothing was handed over.' };
      return;
    }
    const outcome = workhub().completeChoice(choice.workhubChoice, answer.values.target);
    if (!outcome.ok) {
      yield { type: 'text_delta', text: `Nothing was handed over: ${outcome.error.message}` };
      return;
    }
    const result = outcome.result;
    const text =
      result.kind === 'delegated'
        ? `Handed to “${result.delegation.targetTitle ?? 'the session'}”${result.queued ? ' — queued behind its current turn' : ''}.`
        : 'Done.';
    yield { type: 'text_delta', text };
  }
  return { id: 'workhub-coordination', run };
}
