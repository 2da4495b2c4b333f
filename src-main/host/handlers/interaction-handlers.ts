import type { HandlerTable } from '../handler';

export const interactionHandlers: HandlerTable<'interaction.list' | 'interaction.get' | 'interaction.answer'> = {
  'interaction.list': ({ runtime }, input) => runtime.interactions.list(input),
  'interaction.get': ({ runtime }, input) => runtime.interactions.get(input.interactionId),
  'interaction.answer': ({ runtime }, input, ctx) =>
    runtime.interactions.answer(input.interactionId, input.answer, ctx.device?.name ?? null),
};
