import { useEffect, useRef, type ReactNode } from 'react';
import { CloseIcon, RetryIcon, Spinner } from '../icons';

interface SessionPanelProps {
  /** The panel's id (its toggle button's aria-controls); the title's id derives from it. */
  readonly id: string;
  readonly className: string;
  readonly testId: string;
  readonly title: string;
  readonly closeLabel: string;
  onClose(): void;
  /** A click outside closes the panel too, except on an element matching this selector (the button that toggles it). */
  readonly outsideClickSpares?: string;
  readonly children: ReactNode;
}

/**
 * The shape the session's Changes and Commands panels share: a titled section that takes focus when it
 * opens, a Close button, Escape to close; what it lists, or a note while that loads, failed or is empty.
 */
export function SessionPanel({
  id,
  className,
  testId,
  title,
  closeLabel,
  onClose,
  outsideClickSpares,
  children,
}: SessionPanelProps) {
  const ref = useRef<HTMLElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    ref.current?.focus();
  }, [id]);

  useEffect(() => {
    if (outsideClickSpares === undefined) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (ref.current === null || target === null || ref.current.contains(target)) return;
      if (target instanceof Element && target.closest(outsideClickSpares) !== null) return;
      closeRef.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [outsideClickSpares]);

  return (
    <section
      ref={ref}
      id={id}
      className={className}
      data-testid={testId}
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onClose();
      }}
    >
      <header className="commands-panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <button type="button" className="icon-button" aria-label={closeLabel} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      {children}
    </section>
  );
}

/** What a session panel says instead of its list: loading, a failed read (with Try again), or nothing yet. */
export type PanelNote =
  | { readonly kind: 'loading'; readonly label: string }
  | { readonly kind: 'failed'; readonly message: string; onRetry(): void }
  | { readonly kind: 'empty'; readonly text: string };

export function SessionPanelNote({ note }: { note: PanelNote }) {
  switch (note.kind) {
    case 'loading':
      return (
        <div className="commands-empty">
          <Spinner label={note.label} />
        </div>
      );
    case 'failed':
      return (
        <div className="commands-empty">
          <p>{note.message}</p>
          <button type="button" className="button button-small" onClick={note.onRetry}>
            <RetryIcon />
            Try again
          </button>
        </div>
      );
    case 'empty':
      return <p className="commands-empty">{note.text}</p>;
  }
}
