import { describe, expect, it } from 'vitest';
import { dateTimeLabel, sessionTimeLabel, wallTimeLabel, whenLabel } from './dates';

describe('sessionTimeLabel', () => {
  const now = new Date(2025, 5, 18, 15, 30).getTime();

  it('shows the time for today, Yesterday, the weekday this week and the date before', () => {
    expect(sessionTimeLabel(new Date(2025, 5, 18, 9, 5).getTime(), now, 'en-GB')).toBe('09:05');
    expect(sessionTimeLabel(new Date(2025, 5, 17, 23, 0).getTime(), now, 'en-GB')).toBe('Yesterday');
    expect(sessionTimeLabel(new Date(2025, 5, 14, 12, 0).getTime(), now, 'en-GB')).toBe('Sat');
    expect(sessionTimeLabel(new Date(2025, 2, 2, 12, 0).getTime(), now, 'en-GB')).toBe('2 Mar');
    expect(sessionTimeLabel(new Date(2023, 2, 2, 12, 0).getTime(), now, 'en-GB')).toBe('2 Mar 2023');
  });
});

describe('whenLabel and dateTimeLabel', () => {
  const now = Date.UTC(2026, 11, 1, 8, 29);

  it('is relative within the hour, in the locale', () => {
    expect(whenLabel(now - 20_000, now, { locale: 'en-US' })).toBe('just now');
    expect(whenLabel(now - 5 * 60_000, now, { locale: 'en-US' })).toBe('5 min. ago');
    expect(whenLabel(now + 20 * 60_000, now, { locale: 'en-US' })).toBe('in 20 min.');
    expect(whenLabel(now - 5 * 60_000, now, { locale: 'de-DE' })).toBe('vor 5 Min.');
  });

  it('gives older and later times one date-and-time format: the year only when another, the zone only when not local', () => {
    const utc = { locale: 'en-US', timeZone: 'UTC' } as const;
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const shown = whenLabel(now + 3 * 3_600_000, now, utc);
    expect(shown).toMatch(/^Tue, Dec 1, 11:29 AM/);
    expect(shown.endsWith('UTC')).toBe(local !== 'UTC');
    expect(dateTimeLabel(Date.UTC(2025, 0, 5, 9, 0), now, { locale: 'en-GB', timeZone: local })).toMatch(/2025/);
    expect(dateTimeLabel(Date.UTC(2026, 0, 5, 9, 0), now, { locale: 'en-GB', timeZone: local })).not.toMatch(
      /2026|GMT|UTC/,
    );
  });

  it('shows a once-task’s wall-clock time in the same format, never as raw ISO text', () => {
    expect(wallTimeLabel('2026-12-01T08:29', now, { locale: 'en-US' })).toBe('Tue, Dec 1, 08:29 AM');
    expect(wallTimeLabel('2027-01-02T17:05', now, { locale: 'en-GB' })).toBe('Sat, 2 Jan 2027, 17:05');
    expect(wallTimeLabel('not a time', now)).toBe('not a time');
  });
});
