import type { HandlerTable } from '../handler';

export const worktreeHandlers: HandlerTable<
  | 'worktree.check'
  | 'worktree.create'
  | 'worktree.status'
  | 'worktree.diff'
  | 'worktree.merge'
  | 'worktree.update'
  | 'worktree.open'
  | 'worktree.discard'
  | 'worktree.leftovers'
  | 'worktree.discardLeftover'
  | 'worktree.keepLeftover'
> = {
  'worktree.check': ({ runtime }, input) => runtime.worktrees.check(input.workspacePath),
  'worktree.create': ({ runtime }, input) => runtime.worktrees.create(input.sessionId),
  'worktree.status': ({ runtime }, input) => runtime.worktrees.status(input.sessionId),
  'worktree.diff': ({ runtime }, input) => runtime.worktrees.diff(input.sessionId),
  'worktree.merge': ({ runtime }, input) => runtime.worktrees.merge(input.sessionId),
  'worktree.update': ({ runtime }, input) => runtime.worktrees.update(input.sessionId),
  'worktree.open': ({ runtime }, input) => runtime.worktrees.open(input.sessionId),
  'worktree.discard': ({ runtime }, input) => runtime.worktrees.discard(input.sessionId),
  'worktree.leftovers': ({ runtime }) => runtime.worktrees.leftovers(),
  'worktree.discardLeftover': ({ runtime }, input) => runtime.worktrees.discardLeftover(input.path),
  'worktree.keepLeftover': ({ runtime }, input) => runtime.worktrees.keepLeftover(input.path),
};
