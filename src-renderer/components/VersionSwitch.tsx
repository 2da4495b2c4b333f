import { useEffect, useRef } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import type { VersionSwitch as Versions } from '../state/version-switch';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

/**
 * "‹ 2 / 3 ›" under an edited message or a regenerated answer: the versions of this turn across the
 * session's branches. An arrow opens the sibling session at that message, and the switch there takes
 * the focus, so the arrows can be pressed again from the keyboard.
 */
export function VersionSwitch({
  sessionId,
  itemId,
  versions,
}: {
  sessionId: string;
  itemId: string;
  versions: Versions;
}) {
  const store = useStoreApi();
  const focusOn = useAppStore((state) =>
    state.versionFocus?.sessionId === sessionId && state.versionFocus.itemId === itemId
      ? state.versionFocus.direction
      : null,
  );
  const previousRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusOn === null) return;
    const wanted = focusOn === 'previous' ? previousRef.current : nextRef.current;
    const button =
      wanted === null || wanted.disabled ? (focusOn === 'previous' ? nextRef.current : previousRef.current) : wanted;
    button?.focus({ preventScroll: true });
    store.getState().clearVersionFocus();
  }, [focusOn, store]);
  const { previous, next, position, count } = versions;
  return (
    <span
      className="version-switch"
      role="group"
      aria-label={`Version ${position} of ${count}`}
      data-testid="version-switch"
    >
      <button
        ref={previousRef}
        type="button"
        className="icon-button version-arrow"
        aria-label="Previous version"
        title="Previous version"
        disabled={previous === null}
        onClick={() => previous !== null && store.getState().openVersion(previous, 'previous')}
      >
        <ChevronLeftIcon />
      </button>
      <span className="version-count" aria-hidden="true">
        {position} / {count}
      </span>
      <button
        ref={nextRef}
        type="button"
        className="icon-button version-arrow"
        aria-label="Next version"
        title="Next version"
        disabled={next === null}
        onClick={() => next !== null && store.getState().openVersion(next, 'next')}
      >
        <ChevronRightIcon />
      </button>
    </span>
  );
}
