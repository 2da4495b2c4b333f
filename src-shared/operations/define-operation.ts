import type { z } from 'zod';
import type { ErrorCode } from '../errors';

const RESULT = Symbol('result');

export type OperationMode = 'query' | 'command';

export interface OperationDefinition<
  Input extends z.ZodType,
  Result,
  Errors extends ErrorCode = ErrorCode,
  Mode extends OperationMode = OperationMode,
> {
  /** Commands change the record and are refused while the host drains; queries only read. */
  readonly mode: Mode;
  readonly input: Input;
  /** The codes its handler may answer with, kept as literals: `DeclaredError<N>` is their union. */
  readonly errors: readonly Errors[];
  /** Phantom: carries the result type, never present at run time. */
  readonly [RESULT]?: Result;
}

export function defineOperation<Result>() {
  return <
    Input extends z.ZodType,
    const Errors extends readonly ErrorCode[],
    const Mode extends OperationMode,
  >(definition: {
    mode: Mode;
    input: Input;
    errors: Errors;
  }): OperationDefinition<Input, Result, Errors[number], Mode> => definition;
}
