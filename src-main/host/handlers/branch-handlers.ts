import type { HandlerTable } from '../handler';

export const branchHandlers: HandlerTable<'session.branch' | 'session.branches'> = {
  'session.branch': ({ runtime }, input) => runtime.branches.branch(input),
  'session.branches': ({ runtime }, input) => runtime.branches.branches(input.sessionId),
};
