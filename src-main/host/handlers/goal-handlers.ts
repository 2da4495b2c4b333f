import type { HandlerTable } from '../handler';

export const goalHandlers: HandlerTable<'goal.arm' | 'goal.control' | 'goal.get' | 'goal.history'> = {
  'goal.arm': ({ runtime }, input) => runtime.goals.arm(input),
  'goal.control': ({ runtime }, input) => runtime.goals.control(input),
  'goal.get': ({ runtime }, input) => runtime.goals.get(input.sessionId),
  'goal.history': ({ runtime }, input) => runtime.goals.history(input.sessionId),
};
