import type { z } from 'zod';
import type { ErrorCode } from '../errors';

const RESULT = Symbol('result');

export interface OperationDefinition<Input extends z.ZodType, Result> {
  /** Commands change the record and are refused while the host drains; queries only read. */
  readonly mode: 'query' | 'command';
  readonly input: Input;
  readonly errors: readonly ErrorCode[];
  /** Phantom: carries the result type, never present at run time. */
  readonly [RESULT]?: Result;
}

export function defineOperation<Result>() {
  return <Input extends z.ZodType>(definition: {
    mode: 'query' | 'command';
    input: Input;
    errors: readonly ErrorCode[];
  }): OperationDefinition<Input, Result> => definition;
}
