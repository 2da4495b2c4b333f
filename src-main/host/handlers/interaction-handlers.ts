import type { HandlerTable } from '../handler';

export const interactionHandlers: HandlerTable<'interaction.list' | 'interaction.get' | 'interaction.answer'> = {
  'interaction.list': ({ runtime }, input) => runtime.interactions.list(input),
  'interaction.get': ({ runtime }, input) => runtime.interactions.get(input.interactionId),
  'interaction.answer': async ({ runtime }, input, ctx) => {
    try {
      return await runtime.interactions.answer(input.interactionId, input.answer, ctx.device?.name ?? null);
    } catch (error) {
      // An answer the host could not apply: the agent tree it belongs to fail-stops (once), then the bug is reported.
      const interaction = runtime.interactions.get(input.interactionId);
      if (interaction.ok)
        runtime.agents.failStop(
          interaction.result.interaction.sessionId,
          `An answer could not be applied: ${error instanceof Error ? error.message : String(error)}`,
        );
      throw error;
    }
  },
};
