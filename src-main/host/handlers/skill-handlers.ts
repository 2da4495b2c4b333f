import type { HandlerTable } from '../handler';

export const skillHandlers: HandlerTable<'skill.list'> = {
  'skill.list': ({ runtime }, input) => runtime.skills.list(input.target),
};
