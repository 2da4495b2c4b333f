import type { HandlerTable } from '../handler';

export const shellHandlers: HandlerTable<'shell.list' | 'shell.get' | 'shell.kill'> = {
  'shell.list': ({ runtime }, input) => runtime.shell.list(input.sessionId, input.limit ?? 100),
  'shell.get': ({ runtime }, input) => runtime.shell.get(input.shellRunId),
  'shell.kill': ({ runtime }, input) => runtime.shell.kill(input.shellRunId),
};
