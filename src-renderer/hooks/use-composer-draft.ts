import { useCallback, useEffect, useState } from 'react';
import { useStoreApi } from '../state/store-context';

/**
 * A composer's text: held in the composer, so a keystroke re-renders the composer alone, and written
 * to the store's draft book on each keystroke (which tells no selector: state/draft-book.ts), so
 * sending, leaving the session or anything else reading the draft has every character. Text put into
 * the draft from elsewhere (a restored follow-up, a chosen / command) replaces what shows.
 */
export function useComposerDraft(sessionId: string): readonly [string, (text: string) => void] {
  const store = useStoreApi();
  const [shown, setShown] = useState(() => ({ sessionId, text: store.getState().readDraft(sessionId) }));
  let current = shown;
  // Another session: its own draft from this render on, never a frame of the previous one's.
  if (shown.sessionId !== sessionId) {
    current = { sessionId, text: store.getState().readDraft(sessionId) };
    setShown(current);
  }

  useEffect(() => {
    const show = (text: string) =>
      setShown((prior) => (prior.sessionId === sessionId && prior.text === text ? prior : { sessionId, text }));
    // Replaced between the render and now: nothing was watching yet.
    show(store.getState().readDraft(sessionId));
    return store.getState().watchDraft(sessionId, show);
  }, [sessionId, store]);

  const type = useCallback(
    (text: string) => {
      store.getState().typeDraft(sessionId, text);
      setShown({ sessionId, text });
    },
    [sessionId, store],
  );
  return [current.text, type];
}
