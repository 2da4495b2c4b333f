import { describe, expect, it } from 'vitest';
import { deferredActions } from './deferred-actions';

describe('deferredActions', () => {
  it('loads the module on the first call only, and passes the arguments and the result through', async () => {
    let loads = 0;
    const calls: string[] = [];
    const actions = deferredActions({ greet: true, shout: true }, async () => {
      loads += 1;
      return {
        greet: async (name: string) => (calls.push(`greet ${name}`), `hello ${name}`),
        shout: async (name: string, times: number) => (
          calls.push(`shout ${name}`),
          `${name.toUpperCase()}${'!'.repeat(times)}`
        ),
      };
    });
    expect(loads).toBe(0);
    expect(await Promise.all([actions.greet('ada'), actions.shout('bo', 2)])).toEqual(['hello ada', 'BO!!']);
    expect(await actions.greet('cy')).toBe('hello cy');
    expect(loads).toBe(1);
    expect(calls).toEqual(['greet ada', 'shout bo', 'greet cy']);
  });

  it('tries the module again while it cannot be loaded (a host restarting), and the call goes through once it loads', async () => {
    let loads = 0;
    const actions = deferredActions({ run: true }, async () => {
      loads += 1;
      if (loads === 1) throw new Error('chunk failed');
      return { run: async () => 'ran' };
    });
    expect(await actions.run()).toBe('ran');
    expect(loads).toBe(2);
    expect(await actions.run()).toBe('ran');
    expect(loads).toBe(2);
  });
});
