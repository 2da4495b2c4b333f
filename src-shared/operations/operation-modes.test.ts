import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations } from './index';
import { QUERY_OPERATIONS } from './operation-modes';

describe('QUERY_OPERATIONS', () => {
  it('names exactly the operations whose definition states mode query', () => {
    for (const name of OPERATION_NAMES)
      expect(QUERY_OPERATIONS.has(name), name).toBe(operations[name].mode === 'query');
    expect(QUERY_OPERATIONS.size).toBe(OPERATION_NAMES.filter((name) => operations[name].mode === 'query').length);
  });
});
