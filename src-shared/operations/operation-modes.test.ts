import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, operations } from './index';
import { operationModes } from './operation-modes';

describe('operationModes', () => {
  it('names every operation once, with the mode its definition states', () => {
    expect(Object.keys(operationModes).sort()).toEqual([...OPERATION_NAMES].sort());
    for (const name of OPERATION_NAMES) expect(operationModes[name], name).toBe(operations[name].mode);
  });
});
