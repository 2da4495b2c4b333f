import type { HandlerTable } from '../handler';

export const memoryHandlers: HandlerTable<'memory.list' | 'memory.update' | 'memory.remove'> = {
  'memory.list': ({ runtime }, input) => runtime.memory.list(input.query, input.limit),
  'memory.update': ({ runtime }, input) => runtime.memory.update(input.memoryId, input.text, input.expectedRevision),
  'memory.remove': ({ runtime }, input) => runtime.memory.remove(input.memoryId, input.expectedRevision),
};
