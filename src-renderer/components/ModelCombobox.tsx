import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { filterChoices, priceDetail, priceLabel, windowDetail, windowLabel, type ModelChoice } from '../format/model-choice';
import { CheckIcon } from './icons';
import '../styles/model-combobox.css';

interface ModelComboboxProps {
  /** The trigger's id (what shortcuts and labels point at). */
  readonly id?: string;
  /** What the control chooses, e.g. "Connection and model for the next turn"; the current choice is read after it. */
  readonly label: string;
  readonly choices: readonly ModelChoice[];
  /** The chosen entry's key, or null when nothing is chosen yet. */
  readonly value: string | null;
  readonly onChoose: (choice: ModelChoice) => void;
  /** What the closed control shows. */
  readonly face: ReactNode;
  /** The closed control's words for people (its hover and the end of its accessible name). */
  readonly summary: string;
  readonly className?: string;
  readonly disabled?: boolean;
}

const POPUP_MAX_HEIGHT = 380;
const POPUP_MIN_WIDTH = 360;
const EDGE = 8;

/** Where the popup goes: under the trigger (above it when there is more room there), kept inside the window. */
function popupPlacement(trigger: DOMRect): CSSProperties {
  const width = Math.min(Math.max(trigger.width, POPUP_MIN_WIDTH), window.innerWidth - 2 * EDGE);
  const left = Math.min(Math.max(EDGE, trigger.left), window.innerWidth - EDGE - width);
  const below = window.innerHeight - trigger.bottom - EDGE - 4;
  const above = trigger.top - EDGE - 4;
  if (below >= Math.min(POPUP_MAX_HEIGHT, 220) || below >= above) {
    return { left, width, top: trigger.bottom + 4, maxHeight: Math.min(POPUP_MAX_HEIGHT, below) };
  }
  return { left, width, bottom: window.innerHeight - trigger.top + 4, maxHeight: Math.min(POPUP_MAX_HEIGHT, above) };
}

/**
 * A searchable model list (the ARIA combobox pattern): a button opens a popup with a search box and a
 * listbox. Typing filters; arrows move; Enter chooses; Escape closes. Focus goes back to the button.
 */
export function ModelCombobox({ id, label, choices, value, onChoose, face, summary, className, disabled = false }: ModelComboboxProps) {
  const baseId = useId();
  const triggerId = id ?? `${baseId}-trigger`;
  const listId = `${baseId}-list`;
  const trigger = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [placement, setPlacement] = useState<CSSProperties>({});
  const shown = filterChoices(choices, query);
  const activeChoice = shown[Math.min(active, shown.length - 1)];
  const optionId = (index: number) => `${baseId}-option-${index}`;

  const place = () => {
    if (trigger.current !== null) setPlacement(popupPlacement(trigger.current.getBoundingClientRect()));
  };

  const openWith = (text: string) => {
    if (disabled) return;
    const visible = filterChoices(choices, text);
    const chosen = visible.findIndex((choice) => choice.key === value);
    setQuery(text);
    setActive(chosen < 0 ? 0 : chosen);
    place();
    setOpen(true);
  };

  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) trigger.current?.focus();
  };

  const choose = (choice: ModelChoice | undefined) => {
    if (choice === undefined) return;
    close(true);
    if (choice.key !== value) onChoose(choice);
  };

  useLayoutEffect(() => {
    if (!open) return;
    list.current?.querySelector<HTMLElement>('[data-active="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [open, active, query]);

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (event.target instanceof Node && root.current?.contains(event.target) !== true) close(false);
    };
    const follow = () => place();
    document.addEventListener('mousedown', outside);
    window.addEventListener('resize', follow);
    window.addEventListener('scroll', follow, true);
    return () => {
      document.removeEventListener('mousedown', outside);
      window.removeEventListener('resize', follow);
      window.removeEventListener('scroll', follow, true);
    };
  }, [open]);

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
        return choose(activeChoice);
      case 'Escape':
        // Closes the list only: a dialog around it stays open.
        event.preventDefault();
        event.stopPropagation();
        return close(true);
      case 'Tab':
        event.preventDefault();
        return close(true);
    }
  };

  return (
    <div className={`model-combobox${className === undefined ? '' : ` ${className}`}`} ref={root}>
      <button
        ref={trigger}
        id={triggerId}
        type="button"
        className="model-combobox-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`${label}: ${summary}`}
        title={summary}
        disabled={disabled}
        onClick={() => (open ? close(false) : openWith(''))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            openWith('');
          } else if (event.key.length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) {
            // Typing on the closed control starts a search with that letter.
            event.preventDefault();
            openWith(event.key);
          }
        }}
      >
        {face}
      </button>
      {open ? (
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
                  onClick={() => choose(choice)}
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
      ) : null}
    </div>
  );
}
