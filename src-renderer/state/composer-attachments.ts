import { MAX_ATTACHMENTS_PER_MESSAGE, type AttachmentRef } from '../../src-shared/attachment-model';
import type { AppStore, StoreDeps } from './app-state';

/** The files waiting to go with each session's next message: stored on the host first, then sent with the message. */
export interface ComposerAttachments {
  setPending(sessionId: string, attachments: readonly AttachmentRef[]): void;
  /** Puts files back in front of any attached since (a message that was not sent, a follow-up Stop cancelled). */
  restorePending(sessionId: string, attachments: readonly AttachmentRef[]): void;
  /** Stores the files on the host for the next message; a refused one is said in a notice and left out. */
  attachFiles(sessionId: string, files: readonly File[]): Promise<void>;
  removeAttachment(sessionId: string, attachmentId: string): void;
}

export function createComposerAttachments(
  set: AppStore['setState'],
  get: AppStore['getState'],
  deps: StoreDeps,
): ComposerAttachments {
  const { link } = deps;
  const setPending = (sessionId: string, attachments: readonly AttachmentRef[]) =>
    set((state) => ({ pendingAttachments: { ...state.pendingAttachments, [sessionId]: attachments } }));
  const restorePending = (sessionId: string, attachments: readonly AttachmentRef[]) => {
    if (attachments.length === 0) return;
    const current = get().pendingAttachments[sessionId] ?? [];
    const kept = current.filter(
      (attachment) => !attachments.some((back) => back.attachmentId === attachment.attachmentId),
    );
    setPending(sessionId, [...attachments, ...kept]);
  };
  const notify = (sessionId: string, notice: string) =>
    set((state) => ({ composerNotices: { ...state.composerNotices, [sessionId]: notice } }));

  return {
    setPending,
    restorePending,
    async attachFiles(sessionId, files) {
      set((state) => ({
        composerNotices: Object.fromEntries(Object.entries(state.composerNotices).filter(([key]) => key !== sessionId)),
      }));
      for (const file of files) {
        if ((get().pendingAttachments[sessionId]?.length ?? 0) >= MAX_ATTACHMENTS_PER_MESSAGE) {
          notify(sessionId, `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments.`);
          return;
        }
        const dataBase64 = await base64Of(file);
        const outcome = await link.invoke('attachment.add', {
          sessionId,
          attachmentId: deps.newId(),
          name: file.name || 'pasted file',
          dataBase64,
        });
        if (!outcome.ok) {
          notify(sessionId, outcome.error.message);
          continue;
        }
        setPending(sessionId, [...(get().pendingAttachments[sessionId] ?? []), outcome.result.attachment]);
      }
    },

    removeAttachment(sessionId, attachmentId) {
      setPending(
        sessionId,
        (get().pendingAttachments[sessionId] ?? []).filter((attachment) => attachment.attachmentId !== attachmentId),
      );
    },
  };
}

/** A file's bytes as base64 (what `attachment.add` carries). */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
