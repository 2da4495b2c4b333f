import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const hostHandlers: HandlerTable<'host.info' | 'host.vitals'> = {
  'host.info': (deps) => ok(deps.info()),
  'host.vitals': (deps) => ok(deps.vitals.read()),
};
