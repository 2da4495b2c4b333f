import { useState } from 'react';
import type { GoalRecord } from '../../src-shared/goal-model';
import {
  budgetFraction,
  canResume,
  formatElapsed,
  goalLabel,
  goalStopReason,
  goalTone,
  resumeBlocker,
  tokensLabel,
  turnsLabel,
} from '../format/goal';
import { useAppStore, useStoreApi } from '../state/store-context';
import { CloseIcon, PauseIcon, PencilIcon, PlayIcon, TargetIcon } from './icons';

/**
 * The session's goal: the objective, its status, tokens against the budget, turns against the cap,
 * time spent, why it stopped — and Pause, Resume, Edit limits and Clear.
 */
export function GoalBar({ sessionId }: { sessionId: string }) {
  const goal = useAppStore((state) => state.goals[sessionId] ?? null);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  if (goal === null) return null;
  return <GoalBarBody goal={goal} archived={archived} />;
}

function GoalBarBody({ goal, archived }: { goal: GoalRecord; archived: boolean }) {
  const store = useStoreApi();
  const [busy, setBusy] = useState(false);
  const tone = goalTone(goal.status);
  const reason = goalStopReason(goal);
  const fraction = budgetFraction(goal);
  // The host refuses Resume while a limit is still reached: do not offer what it will refuse.
  const blocker = resumeBlocker(goal);
  const actions = store.getState();

  const control = (action: 'pause' | 'resume') => {
    setBusy(true);
    void actions.controlGoal(goal, action).then((outcome) => {
      setBusy(false);
      if (!outcome.ok) actions.showError(outcome.message);
    });
  };

  return (
    <section
      className={`goal-bar tone-${tone}`}
      aria-label="Goal"
      data-testid="goal-bar"
      data-status={goal.status}
      data-iterations={goal.iterations}
    >
      <div className="goal-bar-icon" aria-hidden="true">
        <TargetIcon />
      </div>
      <div className="goal-bar-main">
        <div className="goal-bar-top">
          <span className={`goal-status tone-${tone}`} data-testid="goal-status">
            {goalLabel(goal)}
          </span>
          <p className="goal-objective" title={goal.objective}>
            {goal.objective}
          </p>
        </div>
        <div className="goal-figures">
          <span className="goal-figure goal-tokens">
            {fraction !== null && goal.tokenBudget !== null ? (
              <progress
                className="goal-progress"
                value={Math.min(goal.tokensUsed, goal.tokenBudget)}
                max={goal.tokenBudget}
                aria-label="Token budget used"
              />
            ) : null}
            <span data-testid="goal-tokens">{tokensLabel(goal)}</span>
          </span>
          <span className="goal-figure" data-testid="goal-turns">
            {turnsLabel(goal)}
          </span>
          <span className="goal-figure" title="Time spent in goal turns">
            {formatElapsed(goal.timeUsedSeconds)}
          </span>
          {goal.createdBy === 'agent' ? <span className="goal-figure">set by the agent</span> : null}
        </div>
        {reason !== null ? (
          <p className="goal-reason" data-testid="goal-reason">
            {reason}
          </p>
        ) : null}
      </div>
      {archived ? null : (
        <div className="goal-actions">
          {goal.status === 'active' ? (
            <button type="button" className="button button-small" disabled={busy} onClick={() => control('pause')}>
              <PauseIcon />
              Pause
            </button>
          ) : null}
          {canResume(goal.status) ? (
            <button
              type="button"
              className="button button-small"
              disabled={busy || blocker !== null}
              title={blocker ?? undefined}
              onClick={() => control('resume')}
            >
              <PlayIcon />
              Resume
            </button>
          ) : null}
          {goal.status === 'complete' ? null : (
            <button
              type="button"
              className="button button-small button-quiet"
              onClick={() => actions.setGoalDialog({ sessionId: goal.sessionId, mode: 'limits' })}
            >
              <PencilIcon />
              Edit limits
            </button>
          )}
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => actions.setGoalDialog({ sessionId: goal.sessionId, mode: 'clear' })}
            aria-label={goal.status === 'complete' ? 'Dismiss the goal' : 'Clear the goal'}
          >
            <CloseIcon />
            {goal.status === 'complete' ? 'Dismiss' : 'Clear'}
          </button>
        </div>
      )}
    </section>
  );
}
