import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { usageDetail } from '../format/usage';
import { useAppStore, useStoreApi } from '../state/store-context';

/**
 * The Conversation menu's entries (instructions, model settings, copy, export, compaction; in a narrow
 * header also Set goal and the session's cost): the first entry is focused on open, arrows move, Escape
 * or Tab closes back to the button, a click outside closes.
 */
export function ConversationMenuPopover({
  sessionId,
  buttonRef,
  onClose,
  onDismiss,
  onNote,
}: {
  sessionId: string;
  buttonRef: RefObject<HTMLButtonElement | null>;
  /** Closes and puts focus back on the menu button. */
  onClose: () => void;
  /** Closes where the pointer went elsewhere (focus follows the pointer). */
  onDismiss: () => void;
  onNote: (note: string) => void;
}) {
  const store = useStoreApi();
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
      .find((entry) => entry.offsetParent !== null)
      ?.focus();
    const onPointer = (event: MouseEvent) => {
      if (
        !(event.target instanceof Node) ||
        menuRef.current?.contains(event.target) ||
        buttonRef.current?.contains(event.target)
      )
        return;
      onDismiss();
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [buttonRef, onDismiss]);

  const run = (action: () => void) => () => {
    onClose();
    action();
  };
  const actions = store.getState();
  const canSetGoal = useAppStore((state) => {
    const goal = state.goals[sessionId];
    const archived = state.sessions.byId[sessionId]?.archived ?? false;
    return !archived && (goal === undefined || goal === null || goal.status === 'complete');
  });
  const totals = useAppStore((state) => state.sessionUsage[sessionId]);
  const items: Array<{ label: string; act: () => void; narrowOnly?: boolean }> = [
    ...(canSetGoal
      ? [{ label: 'Set goal…', act: () => actions.setGoalDialog({ sessionId, mode: 'arm' }), narrowOnly: true }]
      : []),
    { label: 'Instructions…', act: () => actions.setChatDialog({ kind: 'instructions', sessionId }) },
    { label: 'Model settings…', act: () => actions.setChatDialog({ kind: 'model_settings', sessionId }) },
    {
      label: 'Copy conversation',
      act: () =>
        void actions
          .copyConversation(sessionId)
          .then((copied) => onNote(copied ? 'Conversation copied as Markdown.' : 'Copying failed.')),
    },
    { label: 'Export as Markdown', act: () => void actions.exportSession(sessionId, 'markdown') },
    { label: 'Export as JSON', act: () => void actions.exportSession(sessionId, 'json') },
    { label: 'Compact now', act: () => void actions.compactSession(sessionId) },
  ];

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Items only a narrow header shows are skipped while hidden.
    const entries = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter(
      (entry) => entry.offsetParent !== null,
    );
    const index = entries.indexOf(document.activeElement as HTMLElement);
    const move = (next: number) => {
      event.preventDefault();
      entries[(next + entries.length) % entries.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(index + 1);
    else if (event.key === 'ArrowUp') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(entries.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <div ref={menuRef} className="menu-popover" role="menu" aria-label="Conversation" onKeyDown={onMenuKey}>
      {totals !== undefined && totals.calls > 0 ? (
        <p className="menu-note narrow-only" data-testid="menu-session-usage">
          So far: {usageDetail(totals)}
        </p>
      ) : null}
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`menu-item${item.narrowOnly === true ? ' narrow-only' : ''}`}
          onClick={run(item.act)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
