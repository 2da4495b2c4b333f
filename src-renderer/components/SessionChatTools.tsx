import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { retryingImport } from '../platform/retrying-import';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Icon } from './icons';

/** The menu's entries load when it is first opened. */
const ConversationMenuPopover = lazy(() =>
  retryingImport(() => import('./ConversationMenuPopover')).then((module) => ({
    default: module.ConversationMenuPopover,
  })),
);

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
  const chipTitle = [
    global === '' ? null : `For every session: ${global}`,
    own === '' ? null : `For this session: ${own}`,
  ]
    .filter((line) => line !== null)
    .join('\n\n');
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
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);
  const dismiss = useCallback(() => setOpen(false), []);

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
        <Suspense fallback={null}>
          <ConversationMenuPopover
            sessionId={sessionId}
            buttonRef={buttonRef}
            onClose={close}
            onDismiss={dismiss}
            onNote={setNote}
          />
        </Suspense>
      ) : null}
      <span className="visually-hidden" role="status">
        {note}
      </span>
    </div>
  );
}
