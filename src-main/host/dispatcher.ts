import type { z } from 'zod';
import { fail, type OperationError, type Outcome } from '../../src-shared/errors';
import { deviceMayCall } from '../../src-shared/device-scope';
import { isOperationName, operations, type OperationName } from '../../src-shared/operations';
import type { Logger } from '../runtime/ports/ports';
import type { CallContext, Handler, HandlerDeps, HandlerTable } from './handler';

export interface DispatcherOptions {
  readonly handlers: HandlerTable;
  readonly deps: HandlerDeps;
  readonly logger: Logger;
  /** True once the host has begun to drain: commands are refused, queries still answer. */
  readonly isDraining: () => boolean;
  /** What a thrown error means when it is a known fault (a damaged database); null for a bug. */
  readonly knownFault?: (error: unknown) => OperationError | null;
}

export type Dispatch = (op: string, input: unknown, ctx: CallContext) => Promise<Outcome<unknown>>;

/**
 * The one way into the host: checks the operation exists, decodes its input strictly, refuses a
 * paired device what stays on the desktop (src-shared/device-scope.ts), runs the
 * handler, and turns anything thrown into `internal_failure` (logged here, never sent) — or, for a
 * known fault such as a damaged database, into the error that says what to do.
 */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  return async (op, input, ctx) => {
    if (!isOperationName(op))
      return fail('invalid_input', `There is no operation named "${String(op).slice(0, 100)}".`);
    const definition = operations[op];
    const parsed = definition.input.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid_input', describeIssues(op, parsed.error));
    if (ctx.device !== undefined && !deviceMayCall(op, parsed.data)) {
      return fail(
        'device_forbidden',
        'That stays on the desktop: a paired device cannot pair devices, change connections and keys, or switch to Full.',
      );
    }
    if (definition.mode === 'command' && options.isDraining()) {
      return fail('host_draining', 'Cairn is shutting down and no longer accepts changes.');
    }
    try {
      const handler = options.handlers[op] as Handler<OperationName>;
      return await handler(options.deps, parsed.data as never, ctx);
    } catch (error) {
      const known = options.knownFault?.(error) ?? null;
      if (known !== null) return { ok: false, error: known };
      options.logger.error('Operation failed unexpectedly', {
        op,
        transport: ctx.transport,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      return fail('internal_failure', 'Something went wrong inside Cairn. The details are in the host log.');
    }
  };
}

function describeIssues(op: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? 'input' : issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys')
      return `${path}: unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.join(', ')}`;
    return `${path}: ${issue.message}`;
  });
  return `Invalid input for ${op}: ${parts.join('; ')}.`;
}
