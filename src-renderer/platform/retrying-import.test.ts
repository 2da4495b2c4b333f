import { describe, expect, it } from 'vitest';
import { retryingImport } from './retrying-import';

describe('retryingImport', () => {
  it('tries again after a failed fetch and answers with the module once it loads', async () => {
    let calls = 0;
    const waited: number[] = [];
    const module = await retryingImport(
      async () => {
        calls += 1;
        if (calls < 3) throw new TypeError('Failed to fetch dynamically imported module');
        return { value: 42 };
      },
      [10, 20, 30],
      async (ms) => void waited.push(ms),
    );
    expect(module).toEqual({ value: 42 });
    expect(calls).toBe(3);
    expect(waited).toEqual([10, 20]);
  });

  it('gives up with the last error once every attempt failed', async () => {
    let calls = 0;
    const loading = retryingImport(
      async () => {
        calls += 1;
        throw new Error(`attempt ${calls}`);
      },
      [1, 1],
      async () => undefined,
    );
    await expect(loading).rejects.toThrow('attempt 3');
    expect(calls).toBe(3);
  });
});
