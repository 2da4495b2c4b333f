import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const connectionHandlers: HandlerTable<
  | 'connection.list'
  | 'connection.create'
  | 'connection.update'
  | 'connection.remove'
  | 'connection.test'
  | 'connection.models.fetch'
  | 'connection.setDefault'
  | 'connection.discover'
  | 'usage.summary'
> = {
  'connection.list': ({ runtime }) => ok(runtime.connections.list()),
  'connection.create': ({ runtime }, input) => runtime.connections.create(input),
  'connection.update': ({ runtime }, input) => runtime.connections.update(input),
  'connection.remove': ({ runtime }, input) => runtime.connections.remove(input.connectionId, input.expectedRevision),
  'connection.test': ({ runtime }, input) => runtime.connections.test(input.connectionId, input.modelId),
  'connection.models.fetch': ({ runtime }, input) => runtime.connections.fetchModels(input.connectionId),
  'connection.setDefault': ({ runtime }, input) =>
    runtime.connections.setDefault(
      { connectionId: input.connectionId, modelId: input.modelId },
      input.expectedCatalogRevision,
    ),
  'connection.discover': async ({ runtime }) => ok(await runtime.connections.discover()),
  'usage.summary': ({ runtime }, input) => runtime.usage(input),
};
