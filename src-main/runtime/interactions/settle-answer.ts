import type { InteractionAnswer, InteractionStatus } from '../../../src-shared/interaction-model';
import { maskAnswer } from '../../../src-shared/interaction-validation';
import type { StoredInteraction } from '../../storage/interaction-store';
import type { Stores } from '../../storage/stores';

const SETTLED_BY: Record<InteractionAnswer['action'], Exclude<InteractionStatus, 'pending' | 'closed'>> = {
  accept: 'answered',
  deny: 'answered',
  decline: 'declined',
  cancel: 'cancelled',
};

/**
 * Records an answer inside the caller's transaction: the interaction settled with the answer masked
 * (a secret answer's value kept only in the vault, under `secretId`) and `interaction_answered` in the
 * run's ledger. What happens to the run next is the caller's.
 */
export function settleAnswer(
  stores: Pick<Stores, 'interactions' | 'ledger'>,
  interaction: StoredInteraction,
  answer: InteractionAnswer,
  secretId: string | null,
  now: number,
): StoredInteraction {
  const masked = maskAnswer(interaction.request, answer);
  const settled = stores.interactions.settle(interaction.interactionId, {
    status: SETTLED_BY[answer.action],
    answer: masked,
    answerSecretId: secretId,
    closeReason: null,
    now,
  });
  stores.ledger.append(
    interaction.runId,
    [
      {
        kind: 'interaction_answered',
        payload: { interactionId: interaction.interactionId, status: settled.status, answer: masked },
      },
    ],
    now,
  );
  return settled;
}
