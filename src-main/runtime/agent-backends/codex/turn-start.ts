import type { AgentRunInput } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import type { codexPolicies } from './codex-config';
import { turnStartResultSchema } from './codex-protocol';
import type { CodexContext, SessionState } from './codex-session-state';
import { answerAsInput, type PersonAnswer } from './interaction-bridge';
import { DELEGATION_OUTPUT_SCHEMA } from './structured-answer';
import { summariseForNewThread } from './thread-summary';

/** Sends `turn/start` with what Codex is told this turn; the Codex turn id. */
export async function startCodexTurn(
  ctx: CodexContext,
  input: AgentRunInput,
  state: SessionState,
  cwd: string,
  policies: ReturnType<typeof codexPolicies>,
  answeredId: string | null,
  answer: PersonAnswer | null,
): Promise<string> {
  const { live } = state;
  const said = turnInput(input, answeredId, answer);
  // A new thread that replaced one Codex could not resume starts from a summary of Cairn's record.
  const summaryDue = live.threadId !== null && ctx.threads.summaryDue(live.threadId);
  const text = summaryDue ? summariseForNewThread(input.history, { turnId: input.turnId, text: said }) : said;
  const result = await live.rpc
    .request(
      'turn/start',
      {
        threadId: live.threadId,
        input: [{ type: 'text', text, text_elements: [] }],
        cwd,
        approvalPolicy: policies.approvalPolicy,
        sandboxPolicy: policies.sandboxPolicy,
        ...(state.structured ? { outputSchema: DELEGATION_OUTPUT_SCHEMA } : {}),
      },
      ctx.bounds.requestMs,
    )
    .catch(async (error: unknown) => {
      const tail = live.process.stderrTail();
      await ctx.retire(input.sessionId, state);
      throw new AgentBackendError(
        'provider_error',
        `Codex did not start the turn: ${error instanceof Error ? error.message : String(error)}${tail === '' ? '' : `\n${tail}`}`,
        'provider_error',
      );
    });
  const turnId = turnStartResultSchema.parse(result).turn.id;
  if (summaryDue && live.threadId !== null) {
    ctx.threads.summarySent(live.threadId);
    ctx.deps.onNewThread({ sessionId: input.sessionId, turnId: input.turnId, runId: input.runId });
  }
  return turnId;
}

/** What Codex is told this turn: the request, or how an interrupted attempt or an answer carries on. */
function turnInput(input: AgentRunInput, answeredId: string | null, answer: PersonAnswer | null): string {
  if (answeredId !== null) {
    const call = [...input.history]
      .reverse()
      .find((message) => message.role === 'tool_call' && message.data?.toolCallId === answeredId);
    const toolCall = call?.data == null ? null : { toolName: String(call.data.toolName), input: call.data.input };
    return answerAsInput(toolCall, answer, input.approvedToolCall !== null);
  }
  if (input.resume !== null) {
    return `Your previous attempt at this request ended early (${input.resume.reason ?? input.resume.previousStatus}). Continue from where it stopped; do not start over or repeat what you already did.\n\nThe request: ${input.text}`;
  }
  return input.text;
}
