import type { GoalRecord } from '../../src-shared/goal-model';
import type { GoalDraft } from '../forms/goal-form';
import type { SliceCreator } from './app-state';
import type { GoalsState } from './reducers/goals-reducer';
import { applyGoal, setSessionGoal } from './reducers/goals-reducer';

/** How many sessions' goals one goal.list read asks for. */
const READS_AT_ONCE = 200;

export type GoalFormOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Goals the agent keeps working toward: each session's current goal, and the person's controls. */
export interface GoalsSlice {
  readonly goals: GoalsState;
  loadGoal(sessionId: string): Promise<void>;
  /** Reads the goals of sessions (those not known yet, unless `again`). */
  loadGoals(sessionIds: readonly string[], again?: boolean): Promise<void>;
  armGoal(sessionId: string, draft: GoalDraft): Promise<GoalFormOutcome>;
  controlGoal(goal: GoalRecord, action: 'pause' | 'resume' | 'clear'): Promise<GoalFormOutcome>;
  setGoalLimits(goal: GoalRecord, draft: GoalDraft): Promise<GoalFormOutcome>;
}

export const createGoalsSlice: SliceCreator<GoalsSlice> = (set, get, deps) => {
  const { link } = deps;
  const keep = (goal: GoalRecord) => set((state) => ({ goals: applyGoal(state.goals, goal) }));

  async function conflict(sessionId: string, message: string, code: string): Promise<GoalFormOutcome> {
    if (code === 'revision_conflict') {
      await get().loadGoal(sessionId);
      return {
        ok: false,
        message:
          'The goal changed meanwhile (the agent or another window moved it on). Cairn has re-read it — check and try again.',
      };
    }
    if (code === 'operation_conflict' || code === 'not_found') void get().loadGoal(sessionId);
    return { ok: false, message };
  }

  return {
    goals: {},

    async loadGoal(sessionId) {
      const outcome = await link.invoke('goal.get', { sessionId });
      get().flushEvents();
      if (outcome.ok) set((state) => ({ goals: setSessionGoal(state.goals, sessionId, outcome.result.goal) }));
    },

    async loadGoals(sessionIds, again = false) {
      const wanted = again ? [...sessionIds] : sessionIds.filter((sessionId) => !(sessionId in get().goals));
      for (let start = 0; start < wanted.length; start += READS_AT_ONCE) {
        const batch = wanted.slice(start, start + READS_AT_ONCE);
        const outcome = await link.invoke('goal.list', { sessionIds: batch });
        get().flushEvents();
        if (!outcome.ok) continue;
        set((state) => {
          let goals = state.goals;
          for (const sessionId of batch)
            goals = setSessionGoal(
              goals,
              sessionId,
              outcome.result.goals.find((goal) => goal.sessionId === sessionId) ?? null,
            );
          return { goals };
        });
      }
    },

    async armGoal(sessionId, draft) {
      // The goal form's module loads with the goal dialogs (GoalDialogs), so this is there already.
      const { armInput } = await import('../forms/goal-form');
      const outcome = await link.invoke('goal.arm', armInput(sessionId, draft));
      if (!outcome.ok) return conflict(sessionId, outcome.error.message, outcome.error.code);
      keep(outcome.result.goal);
      return { ok: true };
    },

    async controlGoal(goal, action) {
      // A control id of its own, so a resent command is answered with what it did, never applied twice.
      const outcome = await link.invoke('goal.control', {
        sessionId: goal.sessionId,
        goalId: goal.goalId,
        expectedRevision: goal.revision,
        action,
        controlId: deps.newId(),
      });
      if (!outcome.ok) return conflict(goal.sessionId, outcome.error.message, outcome.error.code);
      keep(outcome.result.goal);
      return { ok: true };
    },

    async setGoalLimits(goal, draft) {
      const { limitsInput } = await import('../forms/goal-form');
      const input = limitsInput(goal, draft);
      if (input === null) return { ok: true };
      const outcome = await link.invoke('goal.control', { ...input, controlId: deps.newId() });
      if (!outcome.ok) return conflict(goal.sessionId, outcome.error.message, outcome.error.code);
      keep(outcome.result.goal);
      return { ok: true };
    },
  };
};
