import type { streamText } from 'ai';
import type { ModelSettings } from '../../../../src-shared/chat-model';
import type { ProviderType } from './provider-types';

type ProviderOptions = NonNullable<Parameters<typeof streamText>[0]['providerOptions']>;

/** What `streamText` takes for a step's model settings, per provider. */
export interface StreamSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly providerOptions?: ProviderOptions;
}

/**
 * A step's model settings in the shape each provider reads: temperature and the output limit as the
 * AI SDK's common fields (Ollama also reads the limit from its `options`), reasoning effort as each
 * provider's own option (OpenAI's and compatible servers' `reasoning_effort`, Anthropic's `effort`).
 * Ollama has no reasoning effort, so none is sent to it.
 */
export function streamSettingsFor(providerType: ProviderType, settings: ModelSettings): StreamSettings {
  const { temperature, maxOutputTokens, reasoningEffort } = settings;
  const providerOptions: ProviderOptions = {};
  if (providerType === 'ollama' && maxOutputTokens !== undefined)
    providerOptions.ollama = { options: { num_predict: maxOutputTokens } };
  if (reasoningEffort !== undefined) {
    if (providerType === 'openai') providerOptions.openai = { reasoningEffort };
    else if (providerType === 'openai_compatible') providerOptions.openai_compatible = { reasoningEffort };
    else if (providerType === 'anthropic') providerOptions.anthropic = { effort: reasoningEffort };
  }
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(Object.keys(providerOptions).length === 0 ? {} : { providerOptions }),
  };
}
