import { useEffect, useId, useState } from 'react';
import type { ScheduleSpec, ScheduledTask, TaskEffect, Weekday } from '../../../src-shared/automation-model';
import { DEFAULT_CATCH_UP_MINUTES } from '../../../src-shared/automation-model';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import type { PermissionMode } from '../../../src-shared/model';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { dateTimeLabel } from '../../format/dates';
import { distinctTitles } from '../../format/distinct-titles';
import { WEEKDAYS } from './automation-text';

type Kind = ScheduleSpec['kind'];
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function scheduleOf(kind: Kind, fields: { at: string; minutes: string; time: string; weekdays: Weekday[]; expression: string }): ScheduleSpec {
  switch (kind) {
    case 'once':
      return { kind, at: fields.at };
    case 'every':
      return { kind, minutes: Number(fields.minutes) };
    case 'daily':
      return { kind, time: fields.time, weekdays: fields.weekdays };
    case 'cron':
      return { kind, expression: fields.expression.trim() === '' ? ' ' : fields.expression };
  }
}

/** Create or edit a scheduled task; the next five runs show as the schedule is typed, errors beside it. */
export function TaskForm({ existing, onDone }: { existing: ScheduledTask | null; onDone: () => void }) {
  const store = useStoreApi();
  const formId = useId();
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
  const [title, setTitle] = useState(existing?.title ?? '');
  const [prompt, setPrompt] = useState(existing?.prompt ?? '');
  const [target, setTarget] = useState(existing?.target.kind === 'session' ? existing.target.sessionId : 'new');
  const [permissionMode, setPermissionMode] = useState<PermissionMode>(existing?.target.kind === 'newSession' ? existing.target.permissionMode : 'explore');
  const [kind, setKind] = useState<Kind>(existing?.schedule.kind ?? 'daily');
  const s = existing?.schedule;
  const [at, setAt] = useState(s?.kind === 'once' ? s.at : '');
  const [minutes, setMinutes] = useState(s?.kind === 'every' ? String(s.minutes) : '60');
  const [time, setTime] = useState(s?.kind === 'daily' ? s.time : '09:00');
  const [weekdays, setWeekdays] = useState<Weekday[]>(s?.kind === 'daily' ? [...s.weekdays] : [1, 2, 3, 4, 5]);
  const [expression, setExpression] = useState(s?.kind === 'cron' ? s.expression : '0 9 * * 1-5');
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? LOCAL_ZONE);
  const [effect, setEffect] = useState<TaskEffect>(existing?.effect ?? 'turn');
  const [catchUp, setCatchUp] = useState(String(existing?.catchUpMinutes ?? DEFAULT_CATCH_UP_MINUTES));
  const [preview, setPreview] = useState<{ nextRuns: readonly number[]; problem: string | null }>({ nextRuns: [], problem: null });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const schedule = scheduleOf(kind, { at, minutes, time, weekdays, expression });
  const scheduleKey = JSON.stringify([schedule, timeZone]);

  useEffect(() => {
    let current = true;
    void store
      .getState()
      .previewSchedule(schedule, timeZone)
      .then((result) => current && setPreview(result));
    return () => {
      current = false;
    };
  }, [scheduleKey]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    const outcome = await store.getState().saveTask(
      {
        title,
        prompt,
        target:
          target === 'new'
            ? {
                kind: 'newSession',
                connectionId: existing?.target.kind === 'newSession' ? existing.target.connectionId : OFFLINE_DEMO_CONNECTION_ID,
                model: null,
                workspacePath: null,
                permissionMode,
              }
            : { kind: 'session', sessionId: target },
        schedule,
        timeZone,
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
      <label className="field">
        <span className="field-label">Title</span>
        <input className="input" value={title} onChange={(event) => setTitle(event.target.value)} placeholder="Summarise new issues" />
      </label>
      <label className="field">
        <span className="field-label">What to do</span>
        <textarea
          className="input automation-textarea"
          rows={3}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          placeholder="Summarise the repository's new issues"
        />
      </label>
      <div className="field-pair">
        <label className="field">
          <span className="field-label">Where</span>
          <select className="input select" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="new">A new session each time</option>
            {sessions.map((session) => (
              <option key={session.sessionId} value={session.sessionId}>
                {labels.get(session.sessionId) ?? session.title}
              </option>
            ))}
          </select>
        </label>
        {target === 'new' ? (
          <label className="field">
            <span className="field-label">Permission mode</span>
            <select className="input select" value={permissionMode} onChange={(event) => setPermissionMode(event.target.value as PermissionMode)}>
              <option value="explore">Explore (read only)</option>
              <option value="ask">Ask</option>
              <option value="auto">Auto (runs in the sandbox, unasked)</option>
              <option value="full">Full access (no sandbox)</option>
            </select>
          </label>
        ) : null}
      </div>
      <fieldset className="automation-schedule">
        <legend className="field-label">When</legend>
        <div className="field-pair">
          <label className="field">
            <span className="field-label">Schedule</span>
            <select className="input select" value={kind} aria-label="Schedule kind" onChange={(event) => setKind(event.target.value as Kind)}>
              <option value="once">Once</option>
              <option value="every">Every N minutes</option>
              <option value="daily">Daily on weekdays</option>
              <option value="cron">Cron expression</option>
            </select>
          </label>
          <label className="field">
            <span className="field-label">Time zone</span>
            <input className="input" value={timeZone} onChange={(event) => setTimeZone(event.target.value)} />
          </label>
        </div>
        {kind === 'once' ? (
          <label className="field">
            <span className="field-label">At</span>
            <input className="input" type="datetime-local" value={at} onChange={(event) => setAt(event.target.value)} />
          </label>
        ) : null}
        {kind === 'every' ? (
          <label className="field">
            <span className="field-label">Minutes</span>
            <input className="input" type="number" min={1} value={minutes} onChange={(event) => setMinutes(event.target.value)} />
          </label>
        ) : null}
        {kind === 'daily' ? (
          <div className="field-pair">
            <label className="field">
              <span className="field-label">Time</span>
              <input className="input" type="time" value={time} aria-label="Time of day" onChange={(event) => setTime(event.target.value)} />
            </label>
            <div className="automation-weekdays" role="group" aria-label="Weekdays">
              {WEEKDAYS.map((day, index) => (
                <label key={day} className="automation-weekday">
                  <input
                    type="checkbox"
                    checked={weekdays.includes(index as Weekday)}
                    onChange={(event) => setWeekdays((days) => (event.target.checked ? [...days, index as Weekday].sort() : days.filter((d) => d !== index)))}
                  />
                  {day}
                </label>
              ))}
            </div>
          </div>
        ) : null}
        {kind === 'cron' ? (
          <label className="field">
            <span className="field-label">Cron expression</span>
            <input className="input" value={expression} aria-describedby={`${formId}-schedule-error`} onChange={(event) => setExpression(event.target.value)} spellCheck={false} />
          </label>
        ) : null}
        {preview.problem !== null ? (
          <p className="field-error" id={`${formId}-schedule-error`} role="alert">
            {preview.problem}
          </p>
        ) : (
          <div className="automation-preview" data-testid="schedule-preview">
            <span className="field-help">Next runs</span>
            <ol>
              {preview.nextRuns.map((run) => (
                <li key={run}>{dateTimeLabel(run, Date.now(), { timeZone })}</li>
              ))}
            </ol>
          </div>
        )}
      </fieldset>
      <div className="field-pair">
        <label className="field">
          <span className="field-label">Effect</span>
          <select className="input select" value={effect} onChange={(event) => setEffect(event.target.value as TaskEffect)}>
            <option value="turn">Run an agent turn</option>
            <option value="notify">Just notify me</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Catch-up window (minutes)</span>
          <input className="input" type="number" min={0} value={catchUp} onChange={(event) => setCatchUp(event.target.value)} />
        </label>
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
