import { lazy, Suspense, useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { ModelChoice } from '../format/model-choice';
import '../styles/model-combobox.css';
import { retryingImport } from '../platform/retrying-import';

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

/** The list loads when the control is first opened (preloaded once the app is idle: see preload-chunks). */
const ModelComboboxPopup = lazy(() =>
  retryingImport(() => import('./ModelComboboxPopup')).then((module) => ({ default: module.ModelComboboxPopup })),
);

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
export function ModelCombobox({
  id,
  label,
  choices,
  value,
  onChoose,
  face,
  summary,
  className,
  disabled = false,
}: ModelComboboxProps) {
  const baseId = useId();
  const triggerId = id ?? `${baseId}-trigger`;
  const trigger = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [initialQuery, setInitialQuery] = useState('');
  const [placement, setPlacement] = useState<CSSProperties>({});

  const place = () => {
    if (trigger.current !== null) setPlacement(popupPlacement(trigger.current.getBoundingClientRect()));
  };

  const openWith = (text: string) => {
    if (disabled) return;
    setInitialQuery(text);
    place();
    setOpen(true);
  };

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  const choose = (choice: ModelChoice | undefined) => {
    if (choice === undefined) return;
    close(true);
    if (choice.key !== value) onChoose(choice);
  };

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
        <Suspense fallback={null}>
          <ModelComboboxPopup
            label={label}
            choices={choices}
            value={value}
            initialQuery={initialQuery}
            placement={placement}
            onChoose={choose}
            onClose={close}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
