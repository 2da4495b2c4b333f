import { useId, useRef, useState } from 'react';
import type { GoalRecord } from '../../src-shared/goal-model';
import type { GoalDraft, GoalProblems } from '../forms/goal-form';
import { EMPTY_GOAL_DRAFT, limitsDraft, validateGoalDraft } from '../forms/goal-form';
import { useAppStore, useStoreApi } from '../state/store-context';
import type { GoalDialog } from '../state/ui-slice';
import { Dialog } from './Dialog';
import { FieldFrame } from './FieldFrame';
import { Spinner } from './icons';

/** The goal dialogs: Set goal, Edit limits, and the confirmation before Clear. */
export function GoalDialogs() {
  const dialog = useAppStore((state) => state.goalDialog);
  const goal = useAppStore((state) => (dialog === null ? null : (state.goals[dialog.sessionId] ?? null)));
  if (dialog === null) return null;
  if (dialog.mode === 'arm') return <GoalForm dialog={dialog} goal={null} />;
  if (goal === null) return null;
  if (dialog.mode === 'limits') return <GoalForm dialog={dialog} goal={goal} />;
  return <ClearGoal goal={goal} />;
}

function GoalForm({ dialog, goal }: { dialog: GoalDialog; goal: GoalRecord | null }) {
  const store = useStoreApi();
  const id = useId();
  const [draft, setDraft] = useState<GoalDraft>(() => (goal === null ? EMPTY_GOAL_DRAFT : limitsDraft(goal)));
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const firstRef = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const arming = goal === null;
  const problems: GoalProblems = validateGoalDraft(draft, { objective: arming });
  const shown = attempted ? problems : {};
  const close = () => store.getState().setGoalDialog(null);
  const change = (patch: Partial<GoalDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setMessage(null);
  };

  async function submit() {
    if (Object.keys(problems).length > 0) {
      setAttempted(true);
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    const outcome =
      goal === null
        ? await store.getState().armGoal(dialog.sessionId, draft)
        : await store.getState().setGoalLimits(goal, draft);
    setBusy(false);
    if (outcome.ok) close();
    else setMessage(outcome.message);
  }

  return (
    <Dialog
      labelledBy={`${id}-title`}
      describedBy={`${id}-lead`}
      onClose={close}
      initialFocus={firstRef}
      className="goal-dialog"
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <h2 id={`${id}-title`}>{arming ? 'Set a goal' : 'Edit the goal’s limits'}</h2>
        <p id={`${id}-lead`} className="dialog-lead">
          {arming
            ? 'The agent keeps taking turns toward the goal by itself until it is met, blocked, or a limit is reached. You can pause or clear it at any time.'
            : goal.objective}
        </p>
        {arming ? (
          <FieldFrame
            controlId={`${id}-objective`}
            label="Objective"
            required
            error={shown.objective}
            help="What “done” looks like, in a sentence or two."
          >
            {(aria) => (
              <textarea
                {...aria}
                ref={firstRef}
                className="input textarea"
                rows={3}
                value={draft.objective}
                placeholder="Write the summary of the release notes"
                onChange={(event) => change({ objective: event.target.value })}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                    event.preventDefault();
                    void submit();
                  }
                }}
              />
            )}
          </FieldFrame>
        ) : null}
        <div className="field-pair">
          <FieldFrame
            controlId={`${id}-budget`}
            label="Token budget"
            hint="Optional · at least 1,000 · e.g. 50k"
            error={shown.budget}
          >
            {(aria) => (
              <input
                {...aria}
                ref={arming ? undefined : firstRef}
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                placeholder="No budget"
                value={draft.budget}
                onChange={(event) => change({ budget: event.target.value })}
              />
            )}
          </FieldFrame>
          <FieldFrame
            controlId={`${id}-iterations`}
            label="Turn cap"
            hint="Optional · at least 1"
            error={shown.iterations}
          >
            {(aria) => (
              <input
                {...aria}
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                placeholder="No cap"
                value={draft.iterations}
                onChange={(event) => change({ iterations: event.target.value })}
              />
            )}
          </FieldFrame>
        </div>
        {message !== null ? (
          <p className="form-notice tone-error" role="alert">
            {message}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? <Spinner /> : null}
            {arming ? 'Set goal' : 'Save limits'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function ClearGoal({ goal }: { goal: GoalRecord }) {
  const store = useStoreApi();
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [message, setMessage] = useState<string | null>(null);
  const close = () => store.getState().setGoalDialog(null);
  const done = goal.status === 'complete';
  return (
    <Dialog
      title={done ? 'Dismiss this goal?' : 'Clear this goal?'}
      describedBy={`${id}-text`}
      onClose={close}
      initialFocus={cancelRef}
      actions={
        <>
          <button type="button" className="button" ref={cancelRef} onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              void store
                .getState()
                .controlGoal(goal, 'clear')
                .then((outcome) => (outcome.ok ? close() : setMessage(outcome.message)));
            }}
          >
            {done ? 'Dismiss goal' : 'Clear goal'}
          </button>
        </>
      }
    >
      <p id={`${id}-text`}>
        {done
          ? 'It is complete; dismissing it makes room for a new one. It stays in the session’s history.'
          : 'The agent stops working toward it, and a goal turn that is running now is stopped. The goal stays in the session’s history.'}
      </p>
      {message !== null ? (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      ) : null}
    </Dialog>
  );
}
