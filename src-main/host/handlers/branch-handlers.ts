import type { HandlerTable } from '../handler';

export const branchHandlers: HandlerTable<
  'session.branch' | 'session.rewind' | 'session.rewindPlan' | 'session.branches'
> = {
  'session.branch': ({ runtime }, input) => runtime.branches.branch(input),
  'session.rewind': ({ runtime }, input) => runtime.branches.rewind(input),
  'session.rewindPlan': ({ runtime }, input) => runtime.branches.rewindPlan(input),
  'session.branches': ({ runtime }, input) => runtime.branches.branches(input.sessionId),
};
