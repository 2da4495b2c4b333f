import { TextField } from '../FieldFrame';
import type { ConnectionFieldsProps } from './connection-fields-props';
import { ApiKeyField, BaseUrlField, NameField } from './EndpointFields';

/** A Codex connection's fields: name, a Responses base URL and an OpenAI key (both optional), and which codex binary runs. */
export function CodexFields(props: ConnectionFieldsProps) {
  const { formId, draft, shown, change, touch } = props;
  return (
    <>
      <NameField {...props} />
      <BaseUrlField {...props} />
      <ApiKeyField {...props} />
      <TextField
        controlId={`${formId}-codex-binary`}
        label="Codex binary"
        help="Leave empty to use the Codex bundled with Cairn, or codex on PATH. Or give the full path of the codex binary to run; Test shows which one runs and its version."
        error={shown.codexBinary}
        type="text"
        spellCheck={false}
        autoComplete="off"
        placeholder="Found automatically"
        value={draft.codexBinary}
        onChange={(codexBinary) => change({ codexBinary })}
        onBlur={() => touch('codexBinary')}
      />
    </>
  );
}
