import { useId, useState } from 'react';
import type { ScheduledTask, TaskEffect } from '../../../src-shared/automation-model';
import { DEFAULT_CATCH_UP_MINUTES } from '../../../src-shared/automation-model';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import type { PermissionMode } from '../../../src-shared/model';
import { distinctTitles } from '../../format/distinct-titles';
import { onDevicePage } from '../../platform/device-page';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { FieldFrame, TextField } from '../FieldFrame';
import { scheduleOf, useScheduleDraft } from './schedule-draft';
import { ScheduleFields } from './ScheduleFields';

/** Create or edit a scheduled task; the next five runs show as the schedule is typed, errors beside it. */
export function TaskForm({ existing, onDone }: { existing: ScheduledTask | null; onDone: () => void }) {
  const store = useStoreApi();
  const formId = useId();
  const [title, setTitle] = useState(existing?.title ?? '');
  const [prompt, setPrompt] = useState(existing?.prompt ?? '');
  const [target, setTarget] = useState(existing?.target.kind === 'session' ? existing.target.sessionId : 'new');
  const [permissionMode, setPermissionMode] = useState<PermissionMode>(
    existing?.target.kind === 'newSession' ? existing.target.permissionMode : 'explore',
  );
  const [schedule, changeSchedule] = useScheduleDraft(existing?.schedule, existing?.timeZone);
  const [effect, setEffect] = useState<TaskEffect>(existing?.effect ?? 'turn');
  const [catchUp, setCatchUp] = useState(String(existing?.catchUpMinutes ?? DEFAULT_CATCH_UP_MINUTES));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A paired device leaves Full to the desktop (docs/remote.md).
  const [onDevice] = useState(onDevicePage);

  const submit = async () => {
    setBusy(true);
    setError(null);
    const connectionId =
      existing?.target.kind === 'newSession' ? existing.target.connectionId : OFFLINE_DEMO_CONNECTION_ID;
    const outcome = await store.getState().saveTask(
      {
        title,
        prompt,
        target:
          target === 'new'
            ? { kind: 'newSession', connectionId, model: null, workspacePath: null, permissionMode }
            : { kind: 'session', sessionId: target },
        schedule: scheduleOf(schedule),
        timeZone: schedule.timeZone,
        effect,
        catchUpMinutes: Number(catchUp),
      },
      existing,
    );
    setBusy(false);
    if (outcome.ok) onDone();
    else setError(outcome.message);
  };

  return (
    <form
      className="automation-form"
      aria-label={existing === null ? 'New scheduled task' : `Edit ${existing.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        controlId={`${formId}-title`}
        label="Title"
        placeholder="Summarise new issues"
        value={title}
        onChange={setTitle}
      />
      <TextField
        controlId={`${formId}-prompt`}
        label="What to do"
        controlClassName="input automation-textarea"
        rows={3}
        placeholder="Summarise the repository's new issues"
        value={prompt}
        onChange={setPrompt}
      />
      <div className="field-pair">
        <TargetField controlId={`${formId}-target`} target={target} onChange={setTarget} />
        {target === 'new' ? (
          <FieldFrame controlId={`${formId}-mode`} label="Permission mode">
            {(aria) => (
              <select
                {...aria}
                className="input select"
                value={permissionMode}
                onChange={(event) => setPermissionMode(event.target.value as PermissionMode)}
              >
                <option value="explore">Explore (read only)</option>
                <option value="ask">Ask</option>
                <option value="auto">Auto (runs in the sandbox, unasked)</option>
                <option value="full" disabled={onDevice && permissionMode !== 'full'}>
                  {onDevice ? 'Full access: only on the desktop' : 'Full access (no sandbox)'}
                </option>
              </select>
            )}
          </FieldFrame>
        ) : null}
      </div>
      <ScheduleFields formId={formId} draft={schedule} change={changeSchedule} />
      <div className="field-pair">
        <FieldFrame controlId={`${formId}-effect`} label="Effect">
          {(aria) => (
            <select
              {...aria}
              className="input select"
              value={effect}
              onChange={(event) => setEffect(event.target.value as TaskEffect)}
            >
              <option value="turn">Run an agent turn</option>
              <option value="notify">Just notify me</option>
            </select>
          )}
        </FieldFrame>
        <TextField
          controlId={`${formId}-catch-up`}
          label="Catch-up window (minutes)"
          type="number"
          min={0}
          value={catchUp}
          onChange={setCatchUp}
        />
      </div>
      {error !== null ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="automation-form-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {existing === null ? 'Create task' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** Where the task runs: a new session each time, or one of the sessions a schedule may drive. */
function TargetField({
  controlId,
  target,
  onChange,
}: {
  controlId: string;
  target: string;
  onChange: (target: string) => void;
}) {
  const listIds = useAppStore((state) => state.sessions.listIds);
  const byId = useAppStore((state) => state.sessions.byId);
  const agentLinks = useAppStore((state) => state.agents.links);
  const sessions = listIds.flatMap((id) => {
    const session = byId[id];
    // A child agent's session gets its work from its agent, not from a schedule.
    return session === undefined || session.archived || agentLinks[id] !== undefined ? [] : [session];
  });
  // Sessions that share a title are told apart by folder or date.
  const labels = distinctTitles(sessions, Date.now());
  return (
    <FieldFrame controlId={controlId} label="Where">
      {(aria) => (
        <select {...aria} className="input select" value={target} onChange={(event) => onChange(event.target.value)}>
          <option value="new">A new session each time</option>
          {sessions.map((session) => (
            <option key={session.sessionId} value={session.sessionId}>
              {labels.get(session.sessionId) ?? session.title}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
