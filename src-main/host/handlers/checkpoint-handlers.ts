import type { HandlerTable } from '../handler';

export const checkpointHandlers: HandlerTable<'changes.list' | 'changes.revert'> = {
  'changes.list': ({ runtime }, input) => runtime.checkpoints.list(input.sessionId, input.turnId),
  'changes.revert': ({ runtime }, input) => runtime.checkpoints.revert(input),
};
