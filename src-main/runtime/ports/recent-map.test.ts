import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map';

describe('RecentMap', () => {
  it('keeps at most its limit, dropping the entry used longest ago', () => {
    const map = new RecentMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the newest: b is the oldest
    map.set('d', 4);
    expect(map.size).toBe(3);
    expect(map.has('b')).toBe(false);
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([1, 3, 4]);
    map.set('c', 30); // writing refreshes too
    map.set('e', 5);
    map.set('f', 6);
    expect(map.has('c')).toBe(true);
    expect(map.has('a')).toBe(false);
    expect(map.get('c')).toBe(30);
  });

  it('forgets a deleted entry and refuses a limit below one', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    expect(map.delete('a')).toBe(true);
    expect([map.size, map.get('a')]).toEqual([0, undefined]);
    expect(() => new RecentMap(0)).toThrow(/at least one/);
  });
});
