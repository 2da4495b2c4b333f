import type { AgentBackend, AgentEvent, AgentRunInput } from '../../contract/agent-backend';
import { AgentBackendError } from '../../contract/agent-backend';
import { ASK_USER_TOOL_NAME } from '../../interactions/ask-user-tool';
import { goalTurnNumber } from '../../contract/goal-prompt';
import { runToolCall, type ToolHost } from '../../tools/tool-runner';
import { countStreamChunks, parseDirective, streamChunk, type ScriptedDirective } from './scripted-directives';
import { scriptedSpawn } from './scripted-spawn';
import { SCRIPTED_ASK, SCRIPTED_ASK_SECRET, SCRIPTED_FORM, summariseAnswer } from './scripted-interactions';

export const SCRIPTED_BACKEND_ID = 'scripted';

type ToolCallContext = Parameters<typeof runToolCall>[2];

export interface ScriptedBackendOptions {
  /** The session's tools and permission gate, for `/tool`. */
  readonly tools?: ToolHost;
  readonly now?: () => number;
  /** Pause between the chunks of a plain reply. */
  readonly replyChunkMs?: number;
  /** How long `/hold` keeps going after its abort signal fires, to prove Stop does not wait for it. */
  readonly holdIgnoresAbortMs?: number;
}

/**
 * The deterministic agent every test uses, and the offline demo: it follows directives in the
 * person's message instead of calling a model.
 */
export function createScriptedBackend(options: ScriptedBackendOptions = {}): AgentBackend {
  const replyChunkMs = options.replyChunkMs ?? 25;
  const holdIgnoresAbortMs = options.holdIgnoresAbortMs ?? 1500;

  async function* run(input: AgentRunInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const directive = parseDirective(input.text);
    const earlier = input.history
      .filter((message) => message.turnId === input.turnId && message.role === 'assistant')
      .map((message) => message.text)
      .join('');
    yield { type: 'step_started' };
    const context = {
      sessionId: input.sessionId,
      turnId: input.turnId,
      runId: input.runId,
      now: options.now ?? Date.now,
      signal,
    };
    if (input.approvedToolCall !== null && options.tools !== undefined) {
      const end = yield* runToolCall(input.approvedToolCall, options.tools, context, { approved: true });
      if (end.ended === 'result')
        yield {
          type: 'text_delta',
          text: describeToolResult(input.approvedToolCall.toolName, end.output, end.isError),
        };
      return;
    }
    const goalTurn = goalTurnNumber(input.text);
    if (goalTurn !== null) {
      yield* scriptedGoalTurn(input, goalTurn, options.tools, context);
      return;
    }
    if (input.runKind === 'continuation') {
      const answered = input.history
        .filter((message) => message.turnId === input.turnId && message.role === 'tool_result')
        .at(-1);
      yield { type: 'text_delta', text: summariseAnswer(answered?.data?.output) };
      return;
    }
    const skill = input.history.find(
      (message) =>
        message.turnId === input.turnId && message.role === 'tool_result' && message.data?.toolName === 'load_skill',
    );
    const skillOutput = skill?.data?.output as { name?: unknown } | undefined;
    if (typeof skillOutput?.name === 'string')
      yield { type: 'text_delta', text: `Following the skill “${skillOutput.name}”. ` };
    const finished = yield* playDirective(directive, {
      input,
      earlier,
      tools: options.tools,
      context,
      replyChunkMs,
      holdIgnoresAbortMs,
    });
    if (finished === 'stopped') return;
    yield {
      type: 'usage',
      model: 'scripted',
      inputTokens: Math.ceil(input.text.length / 4),
      outputTokens: 16,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      latencyMs: 0,
      costUsd: 0,
    };
  }

  return { id: SCRIPTED_BACKEND_ID, run };
}

/** What a directive is played with: the run, what it streamed before, its tools and how fast to go. */
interface DirectivePlay {
  readonly input: AgentRunInput;
  readonly earlier: string;
  readonly tools: ToolHost | undefined;
  readonly context: ToolCallContext;
  readonly replyChunkMs: number;
  readonly holdIgnoresAbortMs: number;
}

/** Plays one directive; `stopped` when the run ends there (stopped, waiting on the person) and reports no usage. */
async function* playDirective(
  directive: ScriptedDirective,
  play: DirectivePlay,
): AsyncGenerator<AgentEvent, 'played' | 'stopped'> {
  switch (directive.kind) {
    case 'reply': {
      for (const chunk of replyChunks(directive.text)) {
        if (play.context.signal.aborted) return 'stopped';
        yield { type: 'text_delta', text: chunk };
        await sleep(play.replyChunkMs, play.context.signal);
      }
      break;
    }
    case 'stream': {
      const done = countStreamChunks(play.earlier, directive.chunks);
      for (let index = done + 1; index <= directive.chunks; index += 1) {
        if (play.context.signal.aborted) return 'stopped';
        yield { type: 'text_delta', text: streamChunk(index, directive.chunks, directive.markdown) };
        if (index < directive.chunks) await sleep(directive.intervalMs, play.context.signal);
      }
      break;
    }
    case 'hold': {
      yield { type: 'text_delta', text: 'Holding until you press Stop…' };
      await new Promise<void>((resolve) => {
        if (play.context.signal.aborted) resolve();
        else play.context.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      // Misbehave on purpose: carry on for a while after the abort, then say something late.
      await sleep(play.holdIgnoresAbortMs);
      yield { type: 'text_delta', text: ' (late output after the stop — it must be discarded)' };
      break;
    }
    case 'fail':
      throw new AgentBackendError(directive.code, directive.message);
    case 'ask':
    case 'ask_secret':
    case 'form': {
      const request =
        directive.kind === 'ask' ? SCRIPTED_ASK : directive.kind === 'ask_secret' ? SCRIPTED_ASK_SECRET : SCRIPTED_FORM;
      yield {
        type: 'text_delta',
        text:
          request.kind === 'form'
            ? 'I need a few details to set this up.'
            : 'Before I go on, I need a decision from you.',
      };
      yield {
        type: 'interaction_requested',
        toolCallId: `ask-${play.input.runId}`,
        toolName: ASK_USER_TOOL_NAME,
        input: request,
        request,
      };
      return 'stopped';
    }
    case 'tool': {
      if (play.tools === undefined)
        throw new AgentBackendError('tools_unavailable', 'This scripted agent has no tools.');
      yield { type: 'text_delta', text: `Calling ${directive.toolName}.` };
      const end = yield* runToolCall(
        { toolCallId: `tool-${play.input.runId}`, toolName: directive.toolName, input: directive.input },
        play.tools,
        play.context,
        {
          approved: false,
        },
      );
      if (end.ended !== 'result') return 'stopped';
      yield { type: 'text_delta', text: describeToolResult(directive.toolName, end.output, end.isError) };
      break;
    }
    case 'tools': {
      if (play.tools === undefined)
        throw new AgentBackendError('tools_unavailable', 'This scripted agent has no tools.');
      for (const [index, call] of directive.calls.entries()) {
        yield { type: 'text_delta', text: `Calling ${call.toolName}. ` };
        const end = yield* runToolCall(
          { toolCallId: `tool-${play.input.runId}-${index + 1}`, toolName: call.toolName, input: call.input },
          play.tools,
          play.context,
          {
            approved: false,
          },
        );
        if (end.ended !== 'result') return 'stopped';
      }
      yield { type: 'text_delta', text: `Made ${directive.calls.length} tool calls.` };
      break;
    }
    case 'goal': {
      if (play.tools === undefined)
        throw new AgentBackendError('tools_unavailable', 'This scripted agent has no tools.');
      yield { type: 'text_delta', text: `Setting the goal: ${directive.objective}` };
      const end = yield* runToolCall(
        {
          toolCallId: `goal-${play.input.runId}`,
          toolName: 'create_goal',
          input: {
            objective: directive.objective,
            tokenBudget: directive.tokenBudget,
            maxIterations: directive.maxIterations,
          },
        },
        play.tools,
        play.context,
        { approved: false },
      );
      if (end.ended === 'result')
        yield {
          type: 'text_delta',
          text: end.isError
            ? `\n\nI could not set it: ${JSON.stringify(end.output)}`
            : '\n\nGoal set. I will keep working on it.',
        };
      break;
    }
    case 'spawn': {
      if (play.tools === undefined)
        throw new AgentBackendError('tools_unavailable', 'This scripted agent has no tools.');
      yield* scriptedSpawn(directive, play.tools, play.context);
      break;
    }
    case 'bad_directive':
      yield { type: 'text_delta', text: directive.message };
      break;
    case 'steps': {
      for (let step = 1; step <= directive.steps; step += 1) {
        if (step > 1) yield { type: 'step_started' };
        yield { type: 'text_delta', text: `step ${step} ` };
      }
      break;
    }
  }
  return 'played';
}

/** Tokens the scripted agent reports for each goal turn, so budgets are testable. */
export const SCRIPTED_GOAL_TURN_TOKENS = { input: 400, output: 100 } as const;
const GOAL_TURN_CHUNK_MS = 60;

async function* scriptedGoalTurn(
  input: AgentRunInput,
  turn: number,
  tools: ToolHost | undefined,
  context: ToolCallContext,
): AsyncGenerator<AgentEvent> {
  const objective = input.text.split('\n')[2] ?? '';
  if (input.resume !== null)
    yield {
      type: 'text_delta',
      text: `(The previous attempt was interrupted: ${input.resume.reason ?? input.resume.previousStatus}; carrying on.) `,
    };
  // A goal turn takes a moment, like real work, so it can be watched, stopped and interrupted.
  for (const chunk of [`Working on the goal (turn ${turn}): `, objective, '.']) {
    yield { type: 'text_delta', text: chunk };
    await sleep(GOAL_TURN_CHUNK_MS, context.signal);
    if (context.signal.aborted) return;
  }
  if (/\bquota\b/i.test(objective))
    throw new AgentBackendError('usage_limit', 'The scripted provider says the quota is used up.', 'usage_limit');
  if (/\bfail\b/i.test(objective))
    throw new AgentBackendError('server_error', 'The scripted goal turn failed on purpose.');
  yield {
    type: 'usage',
    model: 'scripted',
    inputTokens: SCRIPTED_GOAL_TURN_TOKENS.input,
    outputTokens: SCRIPTED_GOAL_TURN_TOKENS.output,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    latencyMs: 0,
    costUsd: 0,
  };
  const finishAfter = /finish after (\d+)/i.exec(objective);
  const settle =
    finishAfter !== null && turn >= Number(finishAfter[1])
      ? { status: 'complete', reason: `Done after ${turn} turns.` }
      : /\bblock\b/i.test(objective)
        ? { status: 'blocked', reason: 'The objective asks me to stop and wait for you.' }
        : null;
  if (settle === null || tools === undefined) return;
  const end = yield* runToolCall(
    { toolCallId: `goal-update-${input.runId}`, toolName: 'update_goal', input: settle },
    tools,
    context,
    { approved: false },
  );
  if (end.ended === 'result' && !end.isError) yield { type: 'text_delta', text: ` Marked the goal ${settle.status}.` };
}

function describeToolResult(toolName: string, output: unknown, isError: boolean): string {
  const json = JSON.stringify(output, null, 2) ?? 'null';
  const shown = json.length > 4000 ? `${json.slice(0, 4000)}\n…` : json;
  return `\n\n${toolName} ${isError ? 'failed' : 'returned'}:\n\n\`\`\`json\n${shown}\n\`\`\``;
}

function replyChunks(text: string): string[] {
  const reply = `You said: “${text}”. I'm Cairn's offline demo agent, so I answer from a script rather than a model.`;
  const words = reply.split(/(?<= )/);
  const chunks: string[] = [];
  for (let index = 0; index < words.length; index += 3) chunks.push(words.slice(index, index + 3).join(''));
  return chunks;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
