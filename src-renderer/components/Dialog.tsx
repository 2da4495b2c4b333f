import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

interface DialogProps {
  readonly labelledBy: string;
  readonly describedBy?: string;
  readonly onClose: () => void;
  /** What gets focus when the dialog opens (else the dialog itself). */
  readonly initialFocus?: RefObject<HTMLElement | null>;
  readonly className?: string;
  readonly children: ReactNode;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), textarea:not([disabled]), select, [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves in and is kept there (Tab cycles), Esc or a click outside closes it,
 * and focus returns to where it was.
 */
export function Dialog({ labelledBy, describedBy, onClose, initialFocus, className, children }: DialogProps) {
  const ref = useRef<HTMLDivElement>(null);

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
        aria-labelledby={labelledBy}
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
        {children}
      </div>
    </div>
  );
}
