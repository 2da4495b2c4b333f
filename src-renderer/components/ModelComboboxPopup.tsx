import { useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import {
  filterChoices,
  priceDetail,
  priceLabel,
  windowDetail,
  windowLabel,
  type ModelChoice,
} from '../format/model-choice';
import { CheckIcon } from './icons';

interface ModelComboboxPopupProps {
  readonly label: string;
  readonly choices: readonly ModelChoice[];
  readonly value: string | null;
  /** What the search starts with (the letter typed on the closed control, or nothing). */
  readonly initialQuery: string;
  readonly placement: CSSProperties;
  readonly onChoose: (choice: ModelChoice | undefined) => void;
  readonly onClose: (refocus: boolean) => void;
}

/**
 * ModelCombobox's popup: a search box and the listbox it filters. Typing filters; arrows move; Enter
 * chooses; Escape closes. It opens on the chosen entry when the search shows it.
 */
export function ModelComboboxPopup({
  label,
  choices,
  value,
  initialQuery,
  placement,
  onChoose,
  onClose,
}: ModelComboboxPopupProps) {
  const baseId = useId();
  const listId = `${baseId}-list`;
  const list = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState(initialQuery);
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      filterChoices(choices, initialQuery).findIndex((choice) => choice.key === value),
    ),
  );
  const shown = filterChoices(choices, query);
  const activeChoice = shown[Math.min(active, shown.length - 1)];
  const optionId = (index: number) => `${baseId}-option-${index}`;

  useLayoutEffect(() => {
    list.current?.querySelector<HTMLElement>('[data-active="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active, query]);

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const move = (next: number) => {
      event.preventDefault();
      setActive(Math.max(0, Math.min(last, next)));
    };
    const current = Math.min(active, last);
    switch (event.key) {
      case 'ArrowDown':
        return move(current >= last ? 0 : current + 1);
      case 'ArrowUp':
        return move(current <= 0 ? last : current - 1);
      case 'PageDown':
        return move(current + 8);
      case 'PageUp':
        return move(current - 8);
      case 'Enter':
        event.preventDefault();
        return onChoose(activeChoice);
      case 'Escape':
        // Closes the list only: a dialog around it stays open.
        event.preventDefault();
        event.stopPropagation();
        return onClose(true);
      case 'Tab':
        event.preventDefault();
        return onClose(true);
    }
  };

  return (
    <div className="model-combobox-popup" style={placement} data-testid="model-combobox-popup">
      <input
        className="input model-combobox-search"
        role="combobox"
        aria-label={`Search ${label.toLowerCase()}`}
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeChoice === undefined ? undefined : optionId(shown.indexOf(activeChoice))}
        placeholder="Type to filter models"
        autoComplete="off"
        spellCheck={false}
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onSearchKey}
      />
      <ul ref={list} id={listId} role="listbox" aria-label={label} className="model-combobox-list">
        {shown.map((choice, index) => {
          const isActive = choice === activeChoice;
          const selected = choice.key === value;
          return (
            <li
              key={choice.key}
              id={optionId(index)}
              role="option"
              aria-selected={selected}
              aria-label={`${choice.label}, ${choice.connectionName}, ${windowLabel(choice.window)} context window, ${priceLabel(choice.price)}`}
              data-active={isActive}
              className={`model-combobox-option${isActive ? ' is-active' : ''}`}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => (isActive ? undefined : setActive(index))}
              onClick={() => onChoose(choice)}
            >
              <span className="model-combobox-check" aria-hidden="true">
                {selected ? <CheckIcon /> : null}
              </span>
              <span className="model-combobox-body">
                <span className="model-combobox-name">{choice.label}</span>
                <span className="model-combobox-meta">
                  <span>{choice.connectionName}</span>
                  <span title={windowDetail(choice)} data-testid="model-window">
                    {windowLabel(choice.window)}
                  </span>
                  <span title={priceDetail(choice.price)}>{priceLabel(choice.price)}</span>
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      {shown.length === 0 ? (
        <p className="model-combobox-empty" role="status">
          No model matches “{query}”.
        </p>
      ) : null}
    </div>
  );
}
