/** One card of a choice: its value, name and a line on what it is. */
export interface ChoiceCard<Value extends string> {
  readonly value: Value;
  readonly label: string;
  readonly blurb: string;
}

interface ChoiceCardsProps<Value extends string> {
  readonly legend: string;
  /** The radios' group name (unique in the page). */
  readonly name: string;
  readonly choices: ReadonlyArray<ChoiceCard<Value>>;
  readonly checked: Value;
  onChoose(value: Value): void;
}

/** A choice among a few kinds (a connection's provider, an ACP agent, an MCP transport): radios drawn as cards, each with a line on what it is. */
export function ChoiceCards<Value extends string>({
  legend,
  name,
  choices,
  checked,
  onChoose,
}: ChoiceCardsProps<Value>) {
  return (
    <fieldset className="provider-choice">
      <legend className="field-label">{legend}</legend>
      <div className="provider-options">
        {choices.map((choice) => (
          <label key={choice.value} className={`provider-option${checked === choice.value ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={checked === choice.value}
              onChange={() => onChoose(choice.value)}
            />
            <span className="provider-option-name">{choice.label}</span>
            <span className="provider-option-blurb">{choice.blurb}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
