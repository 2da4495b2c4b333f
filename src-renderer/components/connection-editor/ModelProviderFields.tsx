import { PROVIDERS } from '../../forms/connection-form';
import type { ConnectionFieldsProps } from './connection-fields-props';
import { ApiKeyField, BaseUrlField, NameField } from './EndpointFields';

/** A model provider's fields (OpenAI, Anthropic, Ollama, an OpenAI-compatible server): name, base URL and key. */
export function ModelProviderFields(props: ConnectionFieldsProps) {
  // Ollama asks for no key: its field shows only to remove one stored before.
  const keyField = PROVIDERS[props.draft.providerType].keyNeeded !== 'none' || props.connection?.hasApiKey === true;
  return (
    <>
      <NameField {...props} />
      <BaseUrlField {...props} />
      {keyField ? <ApiKeyField {...props} /> : null}
    </>
  );
}
