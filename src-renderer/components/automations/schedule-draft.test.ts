import { describe, expect, it } from 'vitest';
import { scheduleDraftOf, scheduleOf } from './schedule-draft';

describe('the task form’s schedule draft', () => {
  it('a new task: daily at 09:00 on weekdays, in this computer’s time zone', () => {
    const draft = scheduleDraftOf(undefined, undefined);
    expect(scheduleOf(draft)).toEqual({ kind: 'daily', time: '09:00', weekdays: [1, 2, 3, 4, 5] });
    expect(draft.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('keeps every kind’s fields, so switching kind and back loses nothing', () => {
    const draft = scheduleDraftOf({ kind: 'every', minutes: 15 }, 'UTC');
    expect(scheduleOf({ ...draft, kind: 'cron' })).toEqual({ kind: 'cron', expression: '0 9 * * 1-5' });
    expect(scheduleOf(draft)).toEqual({ kind: 'every', minutes: 15 });
    expect(draft.timeZone).toBe('UTC');
  });

  it('sends an empty cron expression as one space, for the host to refuse with its reason', () => {
    expect(scheduleOf({ ...scheduleDraftOf({ kind: 'cron', expression: '  ' }, 'UTC') })).toEqual({
      kind: 'cron',
      expression: ' ',
    });
    expect(scheduleOf(scheduleDraftOf({ kind: 'once', at: '2026-01-02T03:04' }, 'UTC'))).toEqual({
      kind: 'once',
      at: '2026-01-02T03:04',
    });
  });
});
