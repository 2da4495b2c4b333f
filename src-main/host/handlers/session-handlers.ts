import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const sessionHandlers: HandlerTable<
  | 'session.create'
  | 'session.list'
  | 'session.get'
  | 'session.rename'
  | 'session.configure'
  | 'session.archive'
  | 'session.remove'
  | 'transcript.page'
> = {
  'session.create': async ({ runtime }, { ownWorktree, ...input }) => {
    const created = runtime.sessions.create(input);
    if (!created.ok || ownWorktree !== true) return created;
    const worktree = await runtime.worktrees.create(created.result.session.sessionId);
    if (worktree.ok) return ok({ session: worktree.result.session });
    // A session asked for in a worktree is not left behind without one.
    runtime.sessions.remove(created.result.session.sessionId);
    return worktree;
  },
  'session.list': ({ runtime }, input) => runtime.sessions.list(input),
  'session.get': ({ runtime }, input) => runtime.sessions.get(input.sessionId, input.around),
  'session.rename': ({ runtime }, input) =>
    runtime.sessions.rename(input.sessionId, input.title, input.expectedRevision),
  'session.configure': ({ runtime }, input) => runtime.sessions.configure(input),
  'session.archive': ({ runtime }, input) => runtime.sessions.archive(input.sessionId, input.archived),
  'session.remove': ({ runtime }, input) => runtime.sessions.remove(input.sessionId),
  'transcript.page': ({ runtime }, input) =>
    runtime.sessions.page(
      input.sessionId,
      { before: input.before, after: input.after, around: input.around },
      input.limit,
    ),
};
