import { describe, expect, it } from 'vitest';
import { sessionTimeLabel } from './session-time';

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
