import type { GoalRecord } from '../../src-shared/goal-model';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import type { TurnSummary } from '../../src-shared/model';
import { answerFor, answerInteraction } from './scenarios';
import type { SoakClient } from './soak-client';

/**
 * After the checks of a restart: carries every session of the cycle to rest the way a person would —
 * Resume on each interrupted turn (goal turns are the goal driver's to resume), an answer to each
 * pending question — and then says whether every turn interrupted by the kill completed.
 */
export interface SettleOptions {
  readonly client: SoakClient;
  readonly sessionIds: readonly string[];
  /** Turns the record called interrupted right after the restart: each must end `completed`. */
  readonly interruptedTurns: readonly TurnSummary[];
  /** Questions pending right after the restart: each must be answerable. */
  readonly pendingQuestions: readonly InteractionRecord[];
  readonly timeoutMs: number;
  /** An active goal whose session stays idle this long has stalled. */
  readonly goalStallMs: number;
  /** Time between two looks at the record. */
  readonly pollMs: number;
}

export interface SettleResult {
  readonly resumesOk: number;
  readonly resumesFailed: number;
  readonly questionsOk: number;
  readonly questionsFailed: number;
  readonly goalsStalled: number;
  /** Written for a person: what did not come to rest, and how. */
  readonly failures: readonly { readonly kind: 'resume' | 'question' | 'goal' | 'settle'; readonly what: string }[];
}

interface SessionState {
  readonly sessionId: string;
  readonly activeTurn: TurnSummary | null;
  readonly turns: readonly TurnSummary[];
  readonly queued: number;
  readonly pending: readonly InteractionRecord[];
  readonly goal: GoalRecord | null;
}

async function readState(client: SoakClient, sessionId: string): Promise<SessionState> {
  const snapshot = await client.call('session.get', { sessionId });
  const { interactions } = await client.call('interaction.list', { sessionId, status: 'pending' });
  const { goal } = await client.call('goal.get', { sessionId });
  return {
    sessionId,
    activeTurn: snapshot.activeTurn,
    turns: snapshot.transcript.turns,
    queued: snapshot.queue.filter((message) => message.state === 'queued').length,
    pending: interactions,
    goal,
  };
}

/** Nothing runs, waits or is queued, and every interrupted turn was resumed (or refused a resume). */
const atRest = (state: SessionState, gaveUp: ReadonlySet<string>) =>
  state.activeTurn === null &&
  state.pending.length === 0 &&
  state.queued === 0 &&
  state.goal?.status !== 'active' &&
  !state.turns.some((turn) => turn.status === 'interrupted' && !gaveUp.has(turn.turnId));

function describe(state: SessionState): string {
  const turns = state.turns.map((turn) => `${turn.turnId} ${turn.status}`).join(', ');
  const goal = state.goal === null ? 'no goal' : `goal ${state.goal.status} after ${state.goal.iterations} turns`;
  return `session ${state.sessionId}: turns [${turns}], ${state.queued} queued, ${state.pending.length} pending questions, ${goal}`;
}

export async function settle(options: SettleOptions): Promise<SettleResult> {
  const { client } = options;
  const failures: Array<SettleResult['failures'][number]> = [];
  const deadline = Date.now() + options.timeoutMs;
  const answered = new Map<string, boolean>();
  const gaveUp = new Set<string>();
  const idleGoalSince = new Map<string, number>();
  let goalsStalled = 0;
  let open = [...options.sessionIds];

  while (open.length > 0 && Date.now() < deadline) {
    const stillOpen: string[] = [];
    for (const sessionId of open) {
      const state = await readState(client, sessionId);
      if (atRest(state, gaveUp)) continue;
      for (const interaction of state.pending) {
        if (answered.has(interaction.interactionId)) continue;
        const result = await answerInteraction(
          { client },
          sessionId,
          interaction.interactionId,
          answerFor(interaction.request),
        );
        answered.set(interaction.interactionId, result.ok);
        if (!result.ok)
          failures.push({
            kind: 'question',
            what: `question ${interaction.interactionId} (${describe(state)}) could not be answered: ${result.message}`,
          });
      }
      if (state.activeTurn === null) {
        // An interrupted goal turn is the goal driver's to resume while its goal is active.
        const goalDriven = (turn: TurnSummary) => turn.origin === 'goal' && state.goal?.status === 'active';
        const interrupted = state.turns.find(
          (turn) => turn.status === 'interrupted' && !goalDriven(turn) && !gaveUp.has(turn.turnId),
        );
        if (interrupted !== undefined) {
          const outcome = await client.request('turn.resume', { sessionId, turnId: interrupted.turnId });
          if (outcome !== null && !outcome.ok && outcome.error.code !== 'session_busy') {
            gaveUp.add(interrupted.turnId);
            failures.push({
              kind: 'resume',
              what: `turn.resume of ${interrupted.turnId} (${describe(state)}) answered ${outcome.error.code}: ${outcome.error.message}`,
            });
          }
        }
      }
      if (stalledGoal(state, idleGoalSince, options.goalStallMs)) {
        goalsStalled += 1;
        failures.push({
          kind: 'goal',
          what: `the active goal stalled: nothing ran for ${options.goalStallMs} ms (${describe(state)})`,
        });
        await stopSession(client, state);
        continue;
      }
      stillOpen.push(sessionId);
    }
    open = stillOpen;
    if (open.length > 0 && !(await client.pause(options.pollMs)))
      throw new Error('The host closed the connection while the cycle was settling');
  }

  for (const sessionId of open) {
    const state = await readState(client, sessionId);
    failures.push({ kind: 'settle', what: `did not come to rest within ${options.timeoutMs} ms: ${describe(state)}` });
    await stopSession(client, state);
  }

  let resumesOk = 0;
  for (const turn of options.interruptedTurns) {
    const { turn: now } = await client.call('turn.query', { sessionId: turn.sessionId, turnId: turn.turnId });
    if (now.status === 'completed') resumesOk += 1;
    else {
      const runs = now.runs
        .map((run) => `${run.kind} ${run.status}${run.terminalReason === null ? '' : ` (${run.terminalReason})`}`)
        .join(' → ');
      failures.push({
        kind: 'resume',
        what: `interrupted ${turn.origin} turn ${turn.turnId} (session ${turn.sessionId}) did not resume to completion: ${runs}`,
      });
    }
  }
  const questionsOk = options.pendingQuestions.filter(
    (question) => answered.get(question.interactionId) === true,
  ).length;
  for (const question of options.pendingQuestions) {
    if (!answered.has(question.interactionId))
      failures.push({
        kind: 'question',
        what: `question ${question.interactionId}, pending after the restart, was never offered for an answer`,
      });
  }
  return {
    resumesOk,
    resumesFailed: options.interruptedTurns.length - resumesOk,
    questionsOk,
    questionsFailed: options.pendingQuestions.length - questionsOk,
    goalsStalled,
    failures,
  };
}

/** An active goal, an idle session and nothing waiting on the person, for `stallMs` in a row. */
function stalledGoal(state: SessionState, idleSince: Map<string, number>, stallMs: number): boolean {
  const idle =
    state.goal?.status === 'active' && state.activeTurn === null && state.pending.length === 0 && state.queued === 0;
  if (!idle) {
    idleSince.delete(state.sessionId);
    return false;
  }
  const since = idleSince.get(state.sessionId) ?? Date.now();
  idleSince.set(state.sessionId, since);
  return Date.now() - since >= stallMs;
}

/** Leaves a session that would not come to rest quiet, so it does not disturb the next cycle. */
async function stopSession(client: SoakClient, state: SessionState): Promise<void> {
  await client.request('turn.stop', { sessionId: state.sessionId, source: 'soak_cleanup' });
  const { goal } = await client.call('goal.get', { sessionId: state.sessionId });
  if (goal !== null && goal.status === 'active') {
    await client.request('goal.control', {
      sessionId: state.sessionId,
      goalId: goal.goalId,
      expectedRevision: goal.revision,
      action: 'clear',
    });
  }
}
