import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const hostHandlers: HandlerTable<'host.info'> = {
  'host.info': (deps) => ok(deps.info()),
};
