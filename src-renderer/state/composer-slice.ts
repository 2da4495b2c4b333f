import type { AttachmentRef } from '../../src-shared/attachment-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import { createComposerAttachments } from './composer-attachments';
import { deferredActions } from './deferred-actions';
import { createDraftBook } from './draft-book';
import { applyQueuedMessage } from './reducers/queue-reducer';

/** Said under the composer when Send or Stop could not reach the host. */
export const NOT_SENT_NOTICE =
  'Not sent: Cairn’s host is not reachable. Your message stays here — send it again once Cairn reconnects.';
/** Said instead when the host refused this tab: the banner already says what to do. */
export const NOT_CONNECTED_NOTICE =
  'Not done: this tab is not connected to Cairn — see the notice at the top. Your message stays here.';
export const CANNOT_STOP_NOTICE =
  'Cairn cannot reach its host, so it cannot stop this now. Once it reconnects it shows whether the work is still running.';

/** Starting, following up, stopping and resuming turns, and the text waiting in each composer. */
export interface ComposerSlice {
  /** The unsent text in a session's composer (kept in a draft book beside the state: see draft-book.ts). */
  readDraft(sessionId: string): string;
  /** What the composer calls on each keystroke: kept, and no selector runs. */
  typeDraft(sessionId: string, text: string): void;
  /** Puts text into a session's composer in place of what is there: the composer showing it is told. */
  setDraft(sessionId: string, text: string): void;
  /** Calls `listener` with the text whenever something other than typing replaces the session's draft. */
  watchDraft(sessionId: string, listener: (text: string) => void): () => void;
  /** A removed session's draft goes, here and in the window's storage, so drafts do not pile up there. */
  noteComposerEvents(batch: readonly ChangeEvent[]): void;
  /**
   * Per session, why the last Send or Stop did nothing (the host was not reachable). Nothing is sent
   * later by itself: the draft stays, and the notice goes when the line is back.
   */
  readonly composerNotices: Readonly<Record<string, string>>;
  /** Files attached to each session's next message (stored on the host already). */
  readonly pendingAttachments: Readonly<Record<string, readonly AttachmentRef[]>>;
  /** Stores the files on the host for the next message; a refused one is said in a notice and left out. */
  attachFiles(sessionId: string, files: readonly File[]): Promise<void>;
  removeAttachment(sessionId: string, attachmentId: string): void;
  /** Sends the draft (turn.message.submit): the host starts a turn with it, or queues it behind the running one. */
  sendDraft(sessionId: string): Promise<void>;
  /** Rewrites a follow-up still in the queue; false (said in a notice) when it started meanwhile or the text is empty. */
  editQueuedMessage(sessionId: string, messageId: string, text: string): Promise<boolean>;
  /** Takes a follow-up out of the queue before it starts. */
  removeQueuedMessage(sessionId: string, messageId: string): Promise<void>;
  /** Stops the session's running turn; follow-ups it cancels go back into the composer. */
  stopTurn(sessionId: string): Promise<void>;
  /** Starts a new run of an interrupted, failed or stopped turn. */
  resumeTurn(sessionId: string, turnId: string): Promise<void>;
}

/** Editing and removing a queued follow-up: their bodies load on the first call (queue-actions). */
export type QueueActions = Pick<ComposerSlice, 'editQueuedMessage' | 'removeQueuedMessage'>;

export const createComposerSlice: SliceCreator<ComposerSlice> = (set, get, deps) => {
  const { link } = deps;

  const drafts = createDraftBook(deps.draftStorage);
  const setDraft = drafts.replace;

  /** Whether the line to the host is down: then nothing is sent, and the person is told so. */
  const unreachable = (sessionId: string, notice: string): boolean => {
    const status = get().connection.status;
    if (status === 'open') return false;
    const said = status === 'failed' ? NOT_CONNECTED_NOTICE : notice;
    set((state) => ({ composerNotices: { ...state.composerNotices, [sessionId]: said } }));
    return true;
  };

  /** Puts text back in front of whatever the person has typed since. */
  const restoreDraft = (sessionId: string, texts: readonly string[]) => {
    const current = drafts.read(sessionId);
    setDraft(sessionId, [...texts, current].filter((text) => text.trim() !== '').join('\n\n'));
  };

  /** Sends one message: the host starts a turn with it when the session is free, or queues it behind the running one. */
  async function submitMessage(sessionId: string, text: string, files: { attachmentIds?: string[] }): Promise<boolean> {
    const outcome = await link.invoke('turn.message.submit', {
      sessionId,
      messageId: deps.newId(),
      text,
      placement: 'next_turn',
      ...files,
    });
    if (!outcome.ok) {
      get().reportFailure(outcome.error);
      return false;
    }
    if (outcome.result.disposition === 'queued') {
      set((state) => ({ queues: applyQueuedMessage(state.queues, outcome.result.message) }));
    }
    return true;
  }

  const attachments = createComposerAttachments(set, get, deps);
  const { setPending, restorePending } = attachments;

  return {
    ...deferredActions<QueueActions>({ editQueuedMessage: true, removeQueuedMessage: true }, () =>
      import('./queue-actions').then((module) => module.createQueueActions(set, get, deps)),
    ),

    composerNotices: {},
    pendingAttachments: {},
    readDraft: drafts.read,
    typeDraft: drafts.type,
    setDraft,
    watchDraft: drafts.watch,
    noteComposerEvents(batch) {
      for (const event of batch) if (event.kind === 'session.removed') drafts.forget(event.sessionId);
    },

    attachFiles: attachments.attachFiles,
    removeAttachment: attachments.removeAttachment,

    async sendDraft(sessionId) {
      const text = drafts.read(sessionId);
      if (text.trim() === '') return;
      if (unreachable(sessionId, NOT_SENT_NOTICE)) return;
      // Files go with the message, whether it starts a turn now or waits behind the running one.
      const attachments = get().pendingAttachments[sessionId] ?? [];
      const files =
        attachments.length === 0 ? {} : { attachmentIds: attachments.map((attachment) => attachment.attachmentId) };
      setDraft(sessionId, '');
      if (attachments.length > 0) setPending(sessionId, []);
      // One operation whatever the session is doing: the host, not a possibly stale busy flag, decides.
      const sent = await submitMessage(sessionId, text, files);
      if (!sent) {
        restoreDraft(sessionId, [text]);
        restorePending(sessionId, attachments);
      }
    },

    async stopTurn(sessionId) {
      if (unreachable(sessionId, CANNOT_STOP_NOTICE)) return;
      const outcome = await link.invoke('turn.stop', { sessionId });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      const { cancelledMessages } = outcome.result;
      if (cancelledMessages.length === 0) return;
      set((state) => ({ queues: cancelledMessages.reduce(applyQueuedMessage, state.queues) }));
      restoreDraft(
        sessionId,
        cancelledMessages.map((message) => message.text),
      );
      restorePending(
        sessionId,
        cancelledMessages.flatMap((message) => message.attachments ?? []),
      );
    },

    async resumeTurn(sessionId, turnId) {
      if (
        unreachable(
          sessionId,
          'Cairn’s host is not reachable, so this cannot resume now. Try again once Cairn reconnects.',
        )
      )
        return;
      const outcome = await link.invoke('turn.resume', { sessionId, turnId });
      if (!outcome.ok) get().reportFailure(outcome.error);
    },
  };
};
