import { describe, expect, it } from 'vitest';
import { describeEndReason } from './run-reasons';

describe('describeEndReason', () => {
  it('says every stop source and failure class in words, and never shows a code', () => {
    for (const code of [
      'stop_button',
      'keyboard',
      'superseded',
      'session_archived',
      'session_removed',
      'goal_cleared',
      'workhub_stop',
      'app_restarted',
      'app_shutdown',
      'provider_error',
      'rate_limited',
      'internal_failure',
    ]) {
      const words = describeEndReason(code);
      expect(words).not.toMatch(/_/);
      expect(words).not.toBe('it ended early');
    }
    expect(describeEndReason('stop_button')).toBe('you pressed Stop');
    expect(describeEndReason('some_new_code')).toBe('it ended early');
    expect(describeEndReason(null)).toBe('it ended early');
  });
});
