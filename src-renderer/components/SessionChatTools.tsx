import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { usageDetail } from '../format/usage';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Icon } from './icons';

const MoreIcon = () => (
  <Icon>
    <circle cx="5" cy="12" r="1.2" />
    <circle cx="12" cy="12" r="1.2" />
    <circle cx="19" cy="12" r="1.2" />
  </Icon>
);

/**
 * In the session header: the "Instructions" chip when instructions apply to the session, and the
 * Conversation menu (instructions, model settings, copy, export). In a narrow header the chip, Set
 * goal and the session's cost move into the menu (styles/layout.css hides one or the other).
 */
export function SessionChatTools({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const preferences = useAppStore((state) => state.preferences[sessionId]);

  useEffect(() => {
    void store.getState().loadPreferences(sessionId);
  }, [store, sessionId]);

  const own = preferences?.instructions ?? '';
  const global = preferences?.globalInstructions ?? '';
  const chipTitle = [global === '' ? null : `For every session: ${global}`, own === '' ? null : `For this session: ${own}`].filter((line) => line !== null).join('\n\n');
  return (
    <>
      {chipTitle === '' ? null : (
        <button
          type="button"
          className="instructions-chip"
          data-testid="instructions-chip"
          title={chipTitle}
          aria-label={`Instructions apply${own === '' ? ' (for every session)' : ''}. Edit this session’s instructions`}
          onClick={() => store.getState().setChatDialog({ kind: 'instructions', sessionId })}
        >
          Instructions
        </button>
      )}
      <ConversationMenu sessionId={sessionId} />
    </>
  );
}

function ConversationMenu({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].find((entry) => entry.offsetParent !== null)?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!(event.target instanceof Node) || menuRef.current?.contains(event.target) || buttonRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const run = (action: () => void) => () => {
    close();
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
    ...(canSetGoal ? [{ label: 'Set goal…', act: () => actions.setGoalDialog({ sessionId, mode: 'arm' }), narrowOnly: true }] : []),
    { label: 'Instructions…', act: () => actions.setChatDialog({ kind: 'instructions', sessionId }) },
    { label: 'Model settings…', act: () => actions.setChatDialog({ kind: 'model_settings', sessionId }) },
    {
      label: 'Copy conversation',
      act: () => void actions.copyConversation(sessionId).then((copied) => setNote(copied ? 'Conversation copied as Markdown.' : 'Copying failed.')),
    },
    { label: 'Export as Markdown', act: () => void actions.exportSession(sessionId, 'markdown') },
    { label: 'Export as JSON', act: () => void actions.exportSession(sessionId, 'json') },
    { label: 'Compact now', act: () => void actions.compactSession(sessionId) },
  ];

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Items only a narrow header shows are skipped while hidden.
    const entries = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter((entry) => entry.offsetParent !== null);
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
      close();
    }
  };

  return (
    <div className="conversation-menu">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Conversation menu"
        title="More: instructions, model settings, copy, export and compaction"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <MoreIcon />
      </button>
      {open ? (
        <div ref={menuRef} className="menu-popover" role="menu" aria-label="Conversation" onKeyDown={onMenuKey}>
          {totals !== undefined && totals.calls > 0 ? (
            <p className="menu-note narrow-only" data-testid="menu-session-usage">
              So far: {usageDetail(totals)}
            </p>
          ) : null}
          {items.map((item) => (
            <button key={item.label} type="button" role="menuitem" tabIndex={-1} className={`menu-item${item.narrowOnly === true ? ' narrow-only' : ''}`} onClick={run(item.act)}>
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
      <span className="visually-hidden" role="status">
        {note}
      </span>
    </div>
  );
}
