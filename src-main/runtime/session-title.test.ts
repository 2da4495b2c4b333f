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
  it('never takes a directive as typed', () => {
    expect(titleFromMessage('/tool read_file {"path":"README.md"}')).toBe('Tool call: read_file');
    expect(titleFromMessage('/stream 30 40')).toBe('Offline demo: stream');
    expect(titleFromMessage('/stream 400 50 in the quarterly report')).toBe('in the quarterly report');
    expect(titleFromMessage('/ask')).toBe('Offline demo: ask');
    expect(titleFromMessage('/goal Ship the docs budget 5000')).toBe('Ship the docs budget 5000');
    expect(titleFromMessage('a/b testing plan')).toBe('a/b testing plan');
  });
});
