import { useEffect, useRef } from 'react';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { useComposerDraft } from '../../hooks/use-composer-draft';
import { useGrowWithText } from '../../hooks/use-grow-with-text';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { COMPOSER_INPUT_ID } from '../focus-targets';
import { SendIcon, Spinner } from '../icons';

/** Where the person tells the WorkHub what they want. Enter routes it (nothing is done until they confirm a proposal). */
export function WorkHubComposer() {
  const store = useStoreApi();
  const [draft, typeDraft] = useComposerDraft(WORKHUB_SESSION_ID);
  const routing = useAppStore((state) => state.workhub.routing);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const actions = store.getState();

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  useGrowWithText(inputRef, draft);

  return (
    <form
      className="composer workhub-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void actions.sendToWorkhub();
      }}
    >
      {routing.length > 0 ? (
        <ul className="workhub-pending" role="list">
          {routing.map((pending) => (
            <li key={pending.requestId} className="workhub-pending-item" data-testid="workhub-routing">
              <span className="workhub-pending-text">{pending.text}</span>
              <span className="workhub-pending-status" role="status">
                <Spinner />
                Finding where this belongs…
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="composer-box">
        <textarea
          id={COMPOSER_INPUT_ID}
          ref={inputRef}
          className="composer-input"
          aria-label="Ask the WorkHub"
          placeholder="What do you want done?"
          rows={1}
          value={draft}
          onChange={(event) => typeDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void actions.sendToWorkhub();
            }
          }}
        />
        <div className="composer-bar">
          <span className="composer-hint">
            <span className="keys-hint">Enter to send · </span>nothing happens until you say “Do it”
          </span>
          <button
            type="submit"
            className="send-button"
            aria-label="Send to the WorkHub"
            title="Send"
            disabled={draft.trim() === ''}
          >
            <SendIcon />
          </button>
        </div>
      </div>
    </form>
  );
}
