import { describe, expect, it } from 'vitest';
import { dueSlots, scheduleProblem, slotsAfter } from './schedule';

const iso = (ms: number[]) => ms.map((at) => new Date(at).toISOString());
const at = (text: string) => Date.parse(text);

describe('schedules', () => {
  it('once fires at its wall-clock time in its time zone, and not again', () => {
    const spec = { kind: 'once', at: '2026-12-01T09:00' } as const;
    expect(iso(slotsAfter(spec, 'America/New_York', 0, at('2026-11-30T00:00:00Z'), 5))).toEqual([
      '2026-12-01T14:00:00.000Z',
    ]);
    expect(slotsAfter(spec, 'America/New_York', 0, at('2026-12-01T14:00:00Z'), 5)).toEqual([]);
  });

  it('every N minutes counts from its anchor', () => {
    const anchor = at('2026-12-01T10:00:00Z');
    expect(iso(slotsAfter({ kind: 'every', minutes: 90 }, 'UTC', anchor, anchor + 1000, 2))).toEqual([
      '2026-12-01T11:30:00.000Z',
      '2026-12-01T13:00:00.000Z',
    ]);
    expect(dueSlots({ kind: 'every', minutes: 10 }, 'UTC', anchor, anchor, anchor + 55 * 60_000)).toEqual({
      latest: anchor + 50 * 60_000,
      count: 5,
    });
  });

  it('daily runs only on the chosen weekdays', () => {
    const slots = slotsAfter(
      { kind: 'daily', time: '09:00', weekdays: [1, 2, 3, 4, 5] },
      'Europe/London',
      0,
      at('2026-12-04T12:00:00Z'),
      2,
    );
    expect(iso(slots)).toEqual(['2026-12-07T09:00:00.000Z', '2026-12-08T09:00:00.000Z']); // Friday noon → Monday, Tuesday
  });

  it('cron expressions run in their time zone', () => {
    expect(
      iso(slotsAfter({ kind: 'cron', expression: '30 8 * * *' }, 'Asia/Tokyo', 0, at('2026-12-01T00:00:00Z'), 1)),
    ).toEqual(['2026-12-01T23:30:00.000Z']);
  });

  it('a time skipped by the spring DST change runs once, an hour on; a repeated time in autumn runs once', () => {
    const spring = slotsAfter(
      { kind: 'daily', time: '02:30', weekdays: [0, 1, 2, 3, 4, 5, 6] },
      'Europe/Berlin',
      0,
      at('2026-03-28T12:00:00Z'),
      2,
    );
    expect(iso(spring)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    const autumn = slotsAfter(
      { kind: 'daily', time: '02:30', weekdays: [0, 1, 2, 3, 4, 5, 6] },
      'Europe/Berlin',
      0,
      at('2026-10-24T12:00:00Z'),
      2,
    );
    expect(autumn).toHaveLength(2);
    expect(autumn[1]! - autumn[0]!).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(iso(autumn)[1]).toBe('2026-10-26T01:30:00.000Z');
  });

  it('says what is wrong with a schedule', () => {
    const now = at('2026-12-01T12:00:00Z');
    expect(scheduleProblem({ kind: 'cron', expression: '61 * * * *' }, 'UTC', now)).toMatch(
      /cron expression cannot be read.*minute/,
    );
    expect(scheduleProblem({ kind: 'once', at: '2026-11-30T09:00' }, 'UTC', now)).toMatch(/already passed/);
    expect(scheduleProblem({ kind: 'daily', time: '25:00', weekdays: [1] }, 'UTC', now)).toMatch(/HH:MM/);
    expect(scheduleProblem({ kind: 'daily', time: '09:00', weekdays: [] }, 'UTC', now)).toMatch(/weekday/);
    expect(scheduleProblem({ kind: 'every', minutes: 0 }, 'UTC', now)).toMatch(/1 minute/);
    expect(scheduleProblem({ kind: 'cron', expression: '0 9 * * *' }, 'Mars/Base', now)).toMatch(/time zone/);
    expect(scheduleProblem({ kind: 'cron', expression: '0 9 * * 1-5' }, 'Europe/Berlin', now)).toBeNull();
  });
});
