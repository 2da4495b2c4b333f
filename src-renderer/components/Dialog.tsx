import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { FOCUSABLE } from './focus-targets';

type DialogProps = DialogNaming & {
  readonly describedBy?: string;
  readonly onClose: () => void;
  /** What gets focus when the dialog opens (else the dialog itself). */
  readonly initialFocus?: RefObject<HTMLElement | null>;
  readonly className?: string;
  /** The footer's buttons, in a row under the body. */
  readonly actions?: ReactNode;
  readonly children: ReactNode;
};

/** What names the dialog: its title (the shell draws the heading), or the id of a heading its body draws itself. */
type DialogNaming =
  { readonly title: ReactNode; readonly labelledBy?: never } | { readonly title?: never; readonly labelledBy: string };

/**
 * The one dialog shell: a modal whose title names it, its body, and a row of footer buttons. Focus
 * moves in and is kept there (Tab cycles), Esc or a click outside closes it, and focus returns to where
 * it was.
 */
export function Dialog({
  title,
  labelledBy,
  describedBy,
  onClose,
  initialFocus,
  className,
  actions,
  children,
}: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? ref.current)?.focus();
    return () => previous?.focus();
  }, [initialFocus]);

  return (
    <div className="dialog-backdrop" onMouseDown={onClose}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy ?? titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        className={`dialog${className === undefined ? '' : ` ${className}`}`}
        onMouseDown={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
            return;
          }
          if (event.key !== 'Tab' || ref.current === null) return;
          const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
          const first = focusable[0];
          const last = focusable.at(-1);
          if (first === undefined || last === undefined) return;
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }}
      >
        {title === undefined ? null : <h2 id={titleId}>{title}</h2>}
        {children}
        {actions === undefined ? null : <div className="dialog-actions">{actions}</div>}
      </div>
    </div>
  );
}
