import type { InteractionAnswer } from '../../../src-shared/interaction-model';
import type { StoredInteraction } from '../../storage/interaction-store';
import type { SecretVault } from '../../storage/secret-vault';
import type { Stores } from '../../storage/stores';
import type { RevealToolOutput } from '../context/history-items';
import { interactionOutput } from './interaction-output';

/** An interaction's answer as given: a masked (secret) answer is unsealed from the vault; null when there is none. */
export function fullAnswer(vault: SecretVault, interaction: StoredInteraction): InteractionAnswer | null {
  if (interaction.answerSecretId !== null) {
    const sealed = vault.get(interaction.answerSecretId);
    return sealed === null ? null : (JSON.parse(sealed) as InteractionAnswer);
  }
  return interaction.answer;
}

/**
 * The unmasked tool output of an answered interaction, for the model's next request (the ledger and
 * the transcript keep the masked one).
 */
export function revealToolOutput(deps: { readonly stores: Stores; readonly vault: SecretVault }): RevealToolOutput {
  return (data) => {
    const interaction =
      typeof data.interactionId === 'string' ? deps.stores.interactions.get(data.interactionId) : null;
    if (interaction === null) return data.output;
    const answer = fullAnswer(deps.vault, interaction);
    return answer === null ? data.output : interactionOutput(interaction.request, answer, { masked: false });
  };
}
