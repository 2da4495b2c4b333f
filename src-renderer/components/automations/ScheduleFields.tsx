import { useEffect, useState } from 'react';
import type { Weekday } from '../../../src-shared/automation-model';
import { dateTimeLabel } from '../../format/dates';
import { useStoreApi } from '../../state/store-context';
import { FieldFrame, TextField } from '../FieldFrame';
import { WEEKDAYS } from './automation-text';
import type { ScheduleDraft, ScheduleKind } from './schedule-draft';
import { scheduleOf } from './schedule-draft';

interface ScheduleFieldsProps {
  readonly formId: string;
  readonly draft: ScheduleDraft;
  change(patch: Partial<ScheduleDraft>): void;
}

/** The task form's "When": the schedule's kind, time zone and fields; the next runs (or the schedule's problem) show as it is typed. */
export function ScheduleFields({ formId, draft, change }: ScheduleFieldsProps) {
  const store = useStoreApi();
  const [preview, setPreview] = useState<{ nextRuns: readonly number[]; problem: string | null }>({
    nextRuns: [],
    problem: null,
  });
  const schedule = scheduleOf(draft);
  const scheduleKey = JSON.stringify([schedule, draft.timeZone]);
  const errorId = `${formId}-schedule-error`;

  useEffect(() => {
    let current = true;
    void store
      .getState()
      .previewSchedule(schedule, draft.timeZone)
      .then((result) => current && setPreview(result));
    return () => {
      current = false;
    };
  }, [scheduleKey]);

  return (
    <fieldset className="automation-schedule">
      <legend className="field-label">When</legend>
      <div className="field-pair">
        <FieldFrame controlId={`${formId}-kind`} label="Schedule">
          {(aria) => (
            <select
              {...aria}
              className="input select"
              value={draft.kind}
              aria-label="Schedule kind"
              onChange={(event) => change({ kind: event.target.value as ScheduleKind })}
            >
              <option value="once">Once</option>
              <option value="every">Every N minutes</option>
              <option value="daily">Daily on weekdays</option>
              <option value="cron">Cron expression</option>
            </select>
          )}
        </FieldFrame>
        <TextField
          controlId={`${formId}-zone`}
          label="Time zone"
          value={draft.timeZone}
          onChange={(timeZone) => change({ timeZone })}
        />
      </div>
      {draft.kind === 'once' ? (
        <TextField
          controlId={`${formId}-at`}
          label="At"
          type="datetime-local"
          value={draft.at}
          onChange={(at) => change({ at })}
        />
      ) : null}
      {draft.kind === 'every' ? (
        <TextField
          controlId={`${formId}-minutes`}
          label="Minutes"
          type="number"
          min={1}
          value={draft.minutes}
          onChange={(minutes) => change({ minutes })}
        />
      ) : null}
      {draft.kind === 'daily' ? <DailyFields formId={formId} draft={draft} change={change} /> : null}
      {draft.kind === 'cron' ? (
        <FieldFrame controlId={`${formId}-cron`} label="Cron expression">
          {(aria) => (
            <input
              {...aria}
              className="input"
              value={draft.expression}
              aria-describedby={errorId}
              onChange={(event) => change({ expression: event.target.value })}
              spellCheck={false}
            />
          )}
        </FieldFrame>
      ) : null}
      {preview.problem !== null ? (
        <p className="field-error" id={errorId} role="alert">
          {preview.problem}
        </p>
      ) : (
        <div className="automation-preview" data-testid="schedule-preview">
          <span className="field-help">Next runs</span>
          <ol>
            {preview.nextRuns.map((run) => (
              <li key={run}>{dateTimeLabel(run, Date.now(), { timeZone: draft.timeZone })}</li>
            ))}
          </ol>
        </div>
      )}
    </fieldset>
  );
}

/** A daily schedule: the time of day and the weekdays it runs on. */
function DailyFields({ formId, draft, change }: ScheduleFieldsProps) {
  const toggle = (day: Weekday, on: boolean) =>
    change({ weekdays: on ? [...draft.weekdays, day].sort() : draft.weekdays.filter((d) => d !== day) });
  return (
    <div className="field-pair">
      <FieldFrame controlId={`${formId}-time`} label="Time">
        {(aria) => (
          <input
            {...aria}
            className="input"
            type="time"
            value={draft.time}
            aria-label="Time of day"
            onChange={(event) => change({ time: event.target.value })}
          />
        )}
      </FieldFrame>
      <div className="automation-weekdays" role="group" aria-label="Weekdays">
        {WEEKDAYS.map((day, index) => (
          <label key={day} className="automation-weekday">
            <input
              type="checkbox"
              checked={draft.weekdays.includes(index as Weekday)}
              onChange={(event) => toggle(index as Weekday, event.target.checked)}
            />
            {day}
          </label>
        ))}
      </div>
    </div>
  );
}
