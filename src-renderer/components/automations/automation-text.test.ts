import { describe, expect, it } from 'vitest';
import type { Firing } from '../../../src-shared/automation-model';
import { describeSchedule, firingResult, isFinishedOnceTask } from './automation-text';

const firing = (changes: Partial<Firing>): Firing => ({
  firingId: 'f',
  taskId: 't',
  slotAt: 0,
  recordedAt: 0,
  status: 'started',
  reason: null,
  catchUp: false,
  collapsedSlots: 0,
  manual: false,
  sessionId: 's',
  turnId: 'f',
  turnStatus: 'completed',
  ...changes,
});

describe('automation text', () => {
  it('describes each schedule kind', () => {
    expect(describeSchedule({ kind: 'daily', time: '09:00', weekdays: [1, 2, 3, 4, 5] }, 0)).toBe(
      'Mon, Tue, Wed, Thu, Fri at 09:00',
    );
    expect(describeSchedule({ kind: 'daily', time: '18:00', weekdays: [0, 1, 2, 3, 4, 5, 6] }, 0)).toBe(
      'Daily at 18:00',
    );
    expect(describeSchedule({ kind: 'every', minutes: 120 }, 0)).toBe('Every 2 h');
    expect(describeSchedule({ kind: 'cron', expression: '0 9 * * 1' }, 0)).toBe('Cron 0 9 * * 1');
  });

  it("shows the turn's status once it started, else the firing's own", () => {
    expect(firingResult(firing({}))).toBe('completed');
    expect(firingResult(firing({ turnStatus: 'waiting' }))).toBe('needs an answer');
    expect(firingResult(firing({ status: 'queued', turnStatus: null }))).toBe('queued (session busy)');
    expect(firingResult(firing({ status: 'missed', turnStatus: null }))).toBe('missed');
  });
});

describe('a finished once-task', () => {
  it('is one that ran and has no next run; a repeating task or a once-task still to come is not', () => {
    const once = { kind: 'once', at: '2026-12-01T08:29' } as const;
    expect(isFinishedOnceTask({ schedule: once, nextRunAt: null, lastFiring: firing({}) })).toBe(true);
    expect(isFinishedOnceTask({ schedule: once, nextRunAt: 5, lastFiring: firing({ manual: true }) })).toBe(false);
    expect(
      isFinishedOnceTask({ schedule: { kind: 'every', minutes: 5 }, nextRunAt: null, lastFiring: firing({}) }),
    ).toBe(false);
  });
});
