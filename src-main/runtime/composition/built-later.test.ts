import { describe, expect, it } from 'vitest';
import { BuiltLater } from './built-later';

describe('BuiltLater', () => {
  it('refuses to be read before it is set, with the message it was given, then returns what was set', () => {
    const late = new BuiltLater<{ name: string }>('Goals are not ready');
    expect(late.current).toBeNull();
    expect(() => late.get()).toThrow('Goals are not ready');
    const goals = late.set({ name: 'goals' });
    expect(late.get()).toBe(goals);
    expect(late.current).toBe(goals);
  });
});
