import type { HandlerTable } from '../handler';

export const checkpointHandlers: HandlerTable<'changes.list' | 'changes.files' | 'changes.diff' | 'changes.revert'> = {
  'changes.list': ({ runtime }, input) => runtime.checkpoints.list(input.sessionId, input.turnId),
  'changes.files': async ({ runtime }, input) => runtime.checkpoints.files(input),
  'changes.diff': ({ runtime }, input) => runtime.checkpoints.diff(input),
  'changes.revert': ({ runtime }, input) => runtime.checkpoints.revert(input),
};
