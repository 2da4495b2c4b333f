import { TextField } from '../FieldFrame';
import type { ConnectionFieldsProps } from './connection-fields-props';

/** How long a turn waits on a slow provider: the same two fields for every provider kind. */
export function TimeoutFields({ formId, draft, shown, change, touch }: ConnectionFieldsProps) {
  return (
    <fieldset className="timeout-fields">
      <legend className="field-label">Patience with a slow provider</legend>
      <p className="field-help">
        How long a turn waits for the first word of an answer, and then for each next part, before it fails with Retry.
      </p>
      <div className="timeout-row">
        <SecondsField
          controlId={`${formId}-first-token`}
          label="First answer within (seconds)"
          error={shown.firstTokenTimeout}
          value={draft.firstTokenTimeout}
          onChange={(value) => change({ firstTokenTimeout: value })}
          onBlur={() => touch('firstTokenTimeout')}
        />
        <SecondsField
          controlId={`${formId}-idle`}
          label="Silence mid-answer up to (seconds)"
          error={shown.idleTimeout}
          value={draft.idleTimeout}
          onChange={(value) => change({ idleTimeout: value })}
          onBlur={() => touch('idleTimeout')}
        />
      </div>
    </fieldset>
  );
}

interface SecondsFieldProps {
  readonly controlId: string;
  readonly label: string;
  readonly error: string | undefined;
  readonly value: string;
  onChange(value: string): void;
  onBlur(): void;
}

/** A whole number of seconds, 1 to 3600 (the host checks the same bounds). */
function SecondsField(props: SecondsFieldProps) {
  return (
    <TextField
      {...props}
      controlClassName="input input-seconds"
      type="number"
      inputMode="numeric"
      min={1}
      max={3600}
      step={1}
    />
  );
}
