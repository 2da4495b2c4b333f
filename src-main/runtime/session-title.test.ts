import { describe, expect, it } from 'vitest';
import { titleFromMessage } from './session-title';

describe('titleFromMessage', () => {
  it('takes the first non-empty line with whitespace collapsed', () => {
    expect(titleFromMessage('\n\n   Fix   the   login bug \nmore detail')).toBe('Fix the login bug');
  });
  it('cuts a long line at a word and marks the cut', () => {
    const title = titleFromMessage('Please investigate why the nightly export job times out on large customer accounts');
    expect(title).toBe('Please investigate why the nightly export job times out on…');
    expect((title ?? '').length).toBeLessThanOrEqual(61);
  });
  it('returns null for blank text', () => {
    expect(titleFromMessage(' \n\t ')).toBeNull();
  });
});
