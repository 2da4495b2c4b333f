import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const hostHandlers: HandlerTable<'host.info' | 'host.vitals' | 'storage.usage' | 'storage.reclaim'> = {
  'host.info': (deps) => ok(deps.info()),
  'host.vitals': (deps) => ok(deps.vitals.read()),
  'storage.usage': async (deps) => ok(await deps.storage.usage()),
  'storage.reclaim': (deps) => deps.storage.reclaim(),
};
