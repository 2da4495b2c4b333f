import { describe, expect, it } from 'vitest';
import { connection } from '../state/reducers/record-fixtures';
import { latestTest, testedWhen } from './connection-test';

const kept = { verdict: 'bad_key', message: 'Refused', latencyMs: 3, testedAt: 1_000 } as const;
const own = { verdict: 'ok', message: 'Works', latencyMs: 5, testedAt: 2_000 } as const;

describe('the Test a connection shows', () => {
  it('is the one the host kept, or this window’s own when newer; none before the first', () => {
    expect(latestTest(connection({ connectionId: 'c1' }), undefined)).toBeNull();
    expect(latestTest(connection({ connectionId: 'c1', lastTest: kept }), undefined)).toBe(kept);
    expect(latestTest(connection({ connectionId: 'c1', lastTest: kept }), { state: 'testing' })).toBe(kept);
    expect(latestTest(connection({ connectionId: 'c1', lastTest: kept }), { state: 'done', result: own })).toBe(own);
    expect(latestTest(connection({ connectionId: 'c1', lastTest: own }), { state: 'done', result: kept })).toBe(own);
  });

  it('says when, relative while recent', () => {
    expect(testedWhen(own, 2_000 + 30_000, 'en')).toBe('Tested just now');
    expect(testedWhen(own, 2_000 + 2 * 60_000, 'en')).toBe('Tested 2 min. ago');
  });
});
