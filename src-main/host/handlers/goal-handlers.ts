import { ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const goalHandlers: HandlerTable<'goal.arm' | 'goal.control' | 'goal.get' | 'goal.list' | 'goal.history'> = {
  'goal.arm': ({ runtime }, input) => runtime.goals.arm(input),
  'goal.control': ({ runtime }, input) => runtime.goals.control(input),
  'goal.get': ({ runtime }, input) => runtime.goals.get(input.sessionId),
  'goal.list': ({ runtime }, input) => ok(runtime.goals.currentOf(input.sessionIds)),
  'goal.history': ({ runtime }, input) => runtime.goals.history(input.sessionId),
};
