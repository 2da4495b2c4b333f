import { lazy, Suspense, useEffect, useRef } from 'react';
import { useComposerDraft } from '../hooks/use-composer-draft';
import { useGrowWithText } from '../hooks/use-grow-with-text';
import { useSlashMenu } from '../hooks/use-slash-menu';
import { selectHostRefused, selectHostUnreachable, selectSessionBusy } from '../state/selectors';
import { useAppStore } from '../state/store-context';
import { AttachmentTray, useAttachmentDrop } from './AttachmentTray';
import { COMPOSER_INPUT_ID } from './focus-targets';
import { SendIcon } from './icons';
import { StopButton } from './subagents/StopButton';
import { McpComposerMenu } from './mcp/McpComposerMenu';
import { UnknownCommandQuestion } from './UnknownCommandQuestion';
import { retryingImport } from '../platform/retrying-import';

/** The / menu loads when it first opens (and is preloaded once the app has painted: see preload-chunks). */
const SlashMenu = lazy(() =>
  retryingImport(() => import('./SlashMenu')).then((module) => ({ default: module.SlashMenu })),
);

/**
 * Where the person writes. Enter sends (a new turn, or a follow-up queued behind the running one),
 * Shift+Enter adds a line (on a touch screen Enter adds a line and Send sends); a leading "/" opens the / menu, which then has the arrows, Enter, Tab and Esc; Stop (or Esc, see the app's shortcuts) stops the running turn. While the
 * host is unreachable, Send keeps the draft and says it was not sent, and Stop is not offered.
 */
export function Composer({ sessionId }: { sessionId: string }) {
  const [draft, typeDraft] = useComposerDraft(sessionId);
  const busy = useAppStore(selectSessionBusy(sessionId));
  // While the agent waits for an answer, a new message moves on: the host sets the question aside.
  const waiting = useAppStore((state) => state.sessions.byId[sessionId]?.activity === 'waiting');
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const unreachable = useAppStore(selectHostUnreachable);
  const refused = useAppStore(selectHostRefused);
  const notice = useAppStore((state) => state.composerNotices[sessionId]);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const empty = draft.trim() === '';
  const drop = useAttachmentDrop(sessionId);
  const menu = useSlashMenu(sessionId, draft);
  const listOpen = menu.visible && menu.chosenPrompt === null;

  useEffect(() => {
    if (!archived) inputRef.current?.focus();
  }, [sessionId, archived]);

  useGrowWithText(inputRef, draft);

  if (archived) {
    return (
      <div className="composer composer-archived">
        <p>This session is archived. Unarchive it from the sidebar’s archived list to continue working in it.</p>
      </div>
    );
  }

  return (
    <form
      className="composer"
      {...drop}
      onSubmit={(event) => {
        event.preventDefault();
        menu.send();
      }}
    >
      <div className="composer-box">
        {menu.visible ? (
          <Suspense fallback={null}>
            <SlashMenu menu={menu} />
          </Suspense>
        ) : null}
        <UnknownCommandQuestion menu={menu} />
        <AttachmentTray sessionId={sessionId} />
        {/* The / menu's combobox (ARIA 1.1 pattern): the message box inside it stays a textbox. */}
        <div
          role="combobox"
          aria-label="Message"
          aria-haspopup="listbox"
          aria-expanded={listOpen}
          aria-controls={listOpen ? menu.listId : undefined}
        >
          <textarea
            id={COMPOSER_INPUT_ID}
            ref={inputRef}
            className="composer-input"
            aria-label="Message"
            aria-autocomplete="list"
            aria-controls={listOpen ? menu.listId : undefined}
            aria-activedescendant={listOpen && menu.entries.options.length > 0 ? menu.optionId(menu.active) : undefined}
            placeholder={
              waiting
                ? 'Answer above — or write here to move on (the question is set aside)'
                : busy
                  ? 'Add a follow-up — it runs when this turn is done'
                  : 'Write to the agent…'
            }
            rows={1}
            value={draft}
            onChange={(event) => typeDraft(event.target.value)}
            onKeyDown={(event) => void menu.onKey(event)}
          />
        </div>
        <div className="composer-bar">
          <McpComposerMenu sessionId={sessionId} />
          {notice !== undefined ? (
            <span className="composer-hint composer-notice" role="status" data-testid="composer-notice">
              {notice}
            </span>
          ) : (
            <span className="composer-hint">
              {refused ? (
                'Not connected: see the notice at the top'
              ) : unreachable ? (
                'Cairn’s host is not reachable: messages cannot be sent until it reconnects'
              ) : (
                // Keys, which a touch screen does not advertise (phone.css); the placeholder says the rest.
                <span className="keys-hint">
                  {waiting
                    ? 'Enter sends and sets the question aside · Esc stops'
                    : busy
                      ? 'Enter queues a follow-up · Esc stops'
                      : 'Enter to send · Shift+Enter for a new line'}
                </span>
              )}
            </span>
          )}
          {/* While the host is unreachable nothing can be stopped from here: no Stop to promise it. */}
          <StopButton sessionId={sessionId} busy={busy} unreachable={unreachable} />
          <button
            type="submit"
            className="send-button"
            aria-label="Send"
            title={busy ? 'Queue as a follow-up' : 'Send'}
            disabled={empty}
          >
            <SendIcon />
          </button>
        </div>
      </div>
    </form>
  );
}
