import { ProviderError, type ModelStepEvent } from '../../runtime/connections/providers';

export interface CollectedStep {
  readonly events: ModelStepEvent[];
  /** The ProviderError the step ended with, or null when it finished. */
  readonly error: ProviderError | null;
  readonly text: string;
}

/** Reads a step to its end. Anything other than a ProviderError escaping the step is rethrown. */
export async function collectStep(step: AsyncIterable<ModelStepEvent>): Promise<CollectedStep> {
  const events: ModelStepEvent[] = [];
  let error: ProviderError | null = null;
  try {
    for await (const event of step) events.push(event);
  } catch (caught) {
    if (!(caught instanceof ProviderError)) throw caught;
    error = caught;
  }
  const text = events.map((event) => (event.type === 'text_delta' ? event.text : '')).join('');
  return { events, error, text };
}
