import { describe, expect, expectTypeOf, it } from 'vitest';
import { fail, ok, type ErrorCode, type Outcome } from '../../src-shared/errors';
import { operations, type BoundaryError, type DeclaredError } from '../../src-shared/operations';
import type { Handler } from './handler';

/*
 * The compile-time half is checked by `npm run typecheck`: each `@ts-expect-error` below must meet
 * an error, so if a handler could return a code its operation does not declare, the directive is
 * unused and the typecheck fails.
 */

// @ts-expect-error session.get declares only not_found: a handler answering session_busy does not compile.
const busyGet: Handler<'session.get'> = () => fail('session_busy', 'Busy.');

// @ts-expect-error a service open to any code cannot be returned as it is.
const openGet: Handler<'session.get'> = () => fail('not_found', 'Gone.') as Outcome<never>;

// @ts-expect-error host_draining is the dispatcher's code for commands only; session.get is a query.
const drainingGet: Handler<'session.get'> = () => fail('host_draining', 'Draining.');

// A declared code, and the codes the dispatcher may give any operation, compile.
const declaredGet: Handler<'session.get'> = () => fail('not_found', 'Gone.');
const boundaryGet: Handler<'session.get'> = () => fail('internal_failure', 'Broken.');
const drainingRename: Handler<'session.rename'> = () => fail('host_draining', 'Draining.');

describe('a handler answers only the codes its operation declares', () => {
  it('types each operation by the literal codes it declares', () => {
    expectTypeOf<DeclaredError<'session.get'>>().toEqualTypeOf<'not_found'>();
    expectTypeOf<DeclaredError<'host.info'>>().toEqualTypeOf<never>();
    expectTypeOf<BoundaryError<'session.get'>>().toEqualTypeOf<
      'invalid_input' | 'storage_damaged' | 'internal_failure'
    >();
    expectTypeOf<BoundaryError<'session.rename'>>().toEqualTypeOf<
      'invalid_input' | 'storage_damaged' | 'internal_failure' | 'host_draining'
    >();
    expectTypeOf(fail('not_found', 'x').error.code).toEqualTypeOf<'not_found'>();
    expectTypeOf(ok(1)).toMatchTypeOf<Outcome<number, never>>();
  });

  it('keeps the declared lists at run time as written', () => {
    expect(operations['session.get'].errors).toEqual(['not_found']);
    expect(operations['session.archive'].errors).toEqual(['not_found', 'operation_unavailable']);
    for (const definition of Object.values(operations)) {
      const errors: readonly ErrorCode[] = definition.errors;
      expect(new Set(errors).size).toBe(errors.length);
    }
  });

  it('the handlers above answer as typed', async () => {
    const answers = [busyGet, openGet, drainingGet, declaredGet, boundaryGet].map((handler) =>
      handler(null as never, { sessionId: 's' }, { transport: 'direct', connectionId: 'test' }),
    );
    expect((await Promise.all(answers)).map((outcome) => (outcome.ok ? null : outcome.error.code))).toEqual([
      'session_busy',
      'not_found',
      'host_draining',
      'not_found',
      'internal_failure',
    ]);
    const renamed = await drainingRename(
      null as never,
      { sessionId: 's', title: 't' },
      { transport: 'direct', connectionId: 'test' },
    );
    expect(renamed.ok ? null : renamed.error.code).toBe('host_draining');
  });
});
