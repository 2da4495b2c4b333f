import type { InteractionAnswer, InteractionRequest } from '../../src-shared/interaction-model';
import type { PermissionMode } from '../../src-shared/model';
import type { AckLog } from './acknowledged';
import type { Rng } from './rng';
import type { SoakClient } from './soak-client';

/**
 * The work a kill cycle puts under way, one session each, so a single SIGKILL lands in the middle
 * of all of them at different moments: a stream, two shell commands (one printing, one writing to a
 * file only), a pending question, a goal, and a turn with follow-ups queued behind it.
 */
export const SCENARIOS = ['stream', 'shell_output', 'shell_file', 'question', 'goal', 'queue'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Every random choice of a cycle, drawn before anything starts, so a seed always gives the same plan. */
export interface CyclePlan {
  readonly killAfterMs: number;
  readonly offsets: Readonly<Record<ScenarioName, number>>;
  readonly streamChunks: number;
  readonly streamIntervalMs: number;
  readonly answerAfterMs: number;
  readonly followUpAfterMs: number;
}

export function planCycle(rng: Rng): CyclePlan {
  const offsets = Object.fromEntries(SCENARIOS.map((name) => [name, rng.int(0, 400)])) as Record<ScenarioName, number>;
  return {
    killAfterMs: rng.int(150, 2000),
    offsets,
    streamChunks: rng.int(40, 120),
    streamIntervalMs: rng.int(10, 25),
    answerAfterMs: rng.int(0, 1500),
    followUpAfterMs: rng.int(0, 1000),
  };
}

export interface ScenarioContext {
  readonly client: SoakClient;
  readonly ack: AckLog;
  readonly plan: CyclePlan;
  readonly cycle: number;
  /** Put in every shell command, so its processes can be found in /proc. */
  readonly marker: string;
  /** The folder the shell sessions work in. */
  readonly workspace: string;
}

/** Runs one scenario until its work is under way or the host is gone (never throws). */
export async function runScenario(name: ScenarioName, context: ScenarioContext): Promise<void> {
  if (!(await context.client.pause(context.plan.offsets[name]))) return;
  const { plan, cycle, marker } = context;
  const turnId = `c${cycle}-${name.replaceAll('_', '-')}`;
  switch (name) {
    case 'stream': {
      const sessionId = await createSession(context, name);
      if (sessionId !== null)
        await startTurn(context, sessionId, turnId, `/stream ${plan.streamChunks} ${plan.streamIntervalMs}`);
      return;
    }
    case 'shell_output': {
      const sessionId = await createSession(context, name, {
        workspacePath: context.workspace,
        permissionMode: 'full',
      });
      const command = `: ${marker}-out; for i in $(seq 1 40); do echo "line $i"; sleep 0.04; done`;
      if (sessionId !== null)
        await startTurn(context, sessionId, turnId, `/tool run_shell ${JSON.stringify({ command })}`);
      return;
    }
    case 'shell_file': {
      // Writes to a file only, never to its pipes: a crash of the host does not end it by SIGPIPE.
      const sessionId = await createSession(context, name, {
        workspacePath: context.workspace,
        permissionMode: 'full',
      });
      const command = `: ${marker}-file; while true; do echo tick >> cycle-${cycle}.log; sleep 0.1; done`;
      if (sessionId !== null)
        await startTurn(
          context,
          sessionId,
          turnId,
          `/tool run_shell ${JSON.stringify({ command, timeoutSeconds: 2 })}`,
        );
      return;
    }
    case 'question': {
      const sessionId = await createSession(context, name);
      if (sessionId === null || !(await startTurn(context, sessionId, turnId, '/ask'))) return;
      const asked = await context.client.nextEvent(
        (event) =>
          event.kind === 'interaction.changed' &&
          event.interaction.sessionId === sessionId &&
          event.interaction.status === 'pending',
        10_000,
      );
      if (asked?.kind !== 'interaction.changed' || !(await context.client.pause(plan.answerAfterMs))) return;
      await answerInteraction(
        context,
        sessionId,
        asked.interaction.interactionId,
        answerFor(asked.interaction.request),
      );
      return;
    }
    case 'goal': {
      const sessionId = await createSession(context, name);
      if (sessionId !== null)
        await startTurn(context, sessionId, turnId, '/goal Polish the soak notes, finish after 6');
      return;
    }
    case 'queue': {
      const sessionId = await createSession(context, name);
      if (sessionId === null || !(await startTurn(context, sessionId, turnId, '/stream 40 20'))) return;
      if (!(await submitMessage(context, sessionId, `${turnId}-next-1`, '/stream 20 20'))) return;
      if (!(await context.client.pause(plan.followUpAfterMs))) return;
      await submitMessage(context, sessionId, `${turnId}-next-2`, `Second follow-up of cycle ${cycle}`);
      return;
    }
  }
}

async function createSession(
  context: ScenarioContext,
  name: ScenarioName,
  options: { workspacePath?: string; permissionMode?: PermissionMode } = {},
): Promise<string | null> {
  const outcome = await context.client.request('session.create', {
    title: `Soak ${context.cycle} ${name}`,
    ...options,
  });
  if (outcome?.ok !== true) return null;
  context.ack.addAnswer({ op: 'session.create', sessionId: outcome.result.session.sessionId });
  return outcome.result.session.sessionId;
}

async function startTurn(context: ScenarioContext, sessionId: string, turnId: string, text: string): Promise<boolean> {
  const outcome = await context.client.request('turn.start', { sessionId, turnId, text });
  if (outcome?.ok !== true) return false;
  const { turn } = outcome.result;
  context.ack.addAnswer({
    op: 'turn.start',
    sessionId,
    turnId,
    runId: turn.latestRun.runId,
    status: turn.latestRun.status,
  });
  return true;
}

async function submitMessage(
  context: ScenarioContext,
  sessionId: string,
  messageId: string,
  text: string,
): Promise<boolean> {
  const outcome = await context.client.request('turn.message.submit', {
    sessionId,
    messageId,
    text,
    placement: 'next_turn',
  });
  if (outcome?.ok !== true) return false;
  context.ack.addAnswer({ op: 'turn.message.submit', sessionId, messageId, state: outcome.result.message.state });
  return true;
}

/** Answers an interaction; records the answer as acknowledged when the host says ok. */
export async function answerInteraction(
  context: { client: SoakClient; ack?: AckLog },
  sessionId: string,
  interactionId: string,
  answer: InteractionAnswer,
): Promise<{ ok: boolean; message: string }> {
  const outcome = await context.client.request('interaction.answer', { interactionId, answer });
  if (outcome === null) return { ok: false, message: 'the host closed the connection before answering' };
  if (!outcome.ok) return { ok: false, message: `${outcome.error.code}: ${outcome.error.message}` };
  context.ack?.addAnswer({
    op: 'interaction.answer',
    sessionId,
    interactionId,
    status: outcome.result.interaction.status,
  });
  return { ok: true, message: 'answered' };
}

/** A valid answer to any question or form the scripted agent asks: the first option, or some text. */
export function answerFor(request: InteractionRequest): InteractionAnswer {
  if (request.kind === 'question') {
    const answers = Object.fromEntries(
      request.questions.map((question) => {
        const first = question.options[0];
        return [
          question.id,
          first === undefined ? { optionIds: [], text: 'Soak test answer' } : { optionIds: [first.id] },
        ];
      }),
    );
    return { action: 'accept', answers };
  }
  if (request.kind === 'permission') return { action: 'accept', decision: 'allow_once' };
  return { action: 'decline' };
}
