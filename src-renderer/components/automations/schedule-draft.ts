import { useState } from 'react';
import type { ScheduleSpec, Weekday } from '../../../src-shared/automation-model';

export type ScheduleKind = ScheduleSpec['kind'];
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The schedule part of the task form as typed: every kind's fields are kept, so switching kinds loses nothing. */
export interface ScheduleDraft {
  readonly kind: ScheduleKind;
  readonly at: string;
  readonly minutes: string;
  readonly time: string;
  readonly weekdays: readonly Weekday[];
  readonly expression: string;
  readonly timeZone: string;
}

/** The schedule the draft's kind makes of its fields (an empty cron expression is sent as one space, for the host to refuse). */
export function scheduleOf(draft: ScheduleDraft): ScheduleSpec {
  switch (draft.kind) {
    case 'once':
      return { kind: 'once', at: draft.at };
    case 'every':
      return { kind: 'every', minutes: Number(draft.minutes) };
    case 'daily':
      return { kind: 'daily', time: draft.time, weekdays: [...draft.weekdays] };
    case 'cron':
      return { kind: 'cron', expression: draft.expression.trim() === '' ? ' ' : draft.expression };
  }
}

/** A task's schedule as a draft; a new task's: daily at 09:00 on weekdays, in this computer's time zone. */
export function scheduleDraftOf(schedule: ScheduleSpec | undefined, timeZone: string | undefined): ScheduleDraft {
  return {
    kind: schedule?.kind ?? 'daily',
    at: schedule?.kind === 'once' ? schedule.at : '',
    minutes: schedule?.kind === 'every' ? String(schedule.minutes) : '60',
    time: schedule?.kind === 'daily' ? schedule.time : '09:00',
    weekdays: schedule?.kind === 'daily' ? [...schedule.weekdays] : [1, 2, 3, 4, 5],
    expression: schedule?.kind === 'cron' ? schedule.expression : '0 9 * * 1-5',
    timeZone: timeZone ?? LOCAL_ZONE,
  };
}

/** The schedule draft's state: its value and a change that patches it. */
export function useScheduleDraft(schedule: ScheduleSpec | undefined, timeZone: string | undefined) {
  const [draft, setDraft] = useState(() => scheduleDraftOf(schedule, timeZone));
  const change = (patch: Partial<ScheduleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  return [draft, change] as const;
}
