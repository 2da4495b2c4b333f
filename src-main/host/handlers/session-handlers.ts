import type { HandlerTable } from '../handler';

export const sessionHandlers: HandlerTable<
  'session.create' | 'session.list' | 'session.get' | 'session.rename' | 'session.configure' | 'session.archive' | 'session.remove' | 'transcript.page'
> = {
  'session.create': ({ runtime }, input) => runtime.sessions.create(input),
  'session.list': ({ runtime }, input) => runtime.sessions.list(input),
  'session.get': ({ runtime }, input) => runtime.sessions.get(input.sessionId),
  'session.rename': ({ runtime }, input) => runtime.sessions.rename(input.sessionId, input.title, input.expectedRevision),
  'session.configure': ({ runtime }, input) => runtime.sessions.configure(input),
  'session.archive': ({ runtime }, input) => runtime.sessions.archive(input.sessionId, input.archived),
  'session.remove': ({ runtime }, input) => runtime.sessions.remove(input.sessionId),
  'transcript.page': ({ runtime }, input) => runtime.sessions.page(input.sessionId, input.before, input.limit),
};
