import { describe, expect, it, vi } from 'vitest';
import type { AttachmentRecord } from '../../src-shared/attachment-model';
import { session } from './reducers/record-fixtures';
import { setupStore as setup } from './test-store';

const record = (attachmentId: string, name: string): AttachmentRecord => ({
  attachmentId,
  sessionId: 's1',
  name,
  mediaType: 'text/plain',
  kind: 'text',
  sizeBytes: 5,
  sha256: 'ab',
  createdAt: 0,
});

describe('attachments in the composer', () => {
  it('uploads each file, says a refused one under the composer, and sends the rest with the next message', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('attachment.add', ({ attachmentId, name }) =>
      name === 'photo.png'
        ? {
            ok: false,
            error: {
              code: 'invalid_input',
              message: '“photo.png” cannot be attached: The Offline demo cannot look at images.',
            },
          }
        : { ok: true, result: { attachment: record(attachmentId, name) } },
    );
    await store.getState().attachFiles('s1', [new File(['hello'], 'notes.txt'), new File(['x'], 'photo.png')]);
    expect(link.callsOf('attachment.add')[0]).toEqual({
      sessionId: 's1',
      attachmentId: 'id-1',
      name: 'notes.txt',
      dataBase64: btoa('hello'),
    });
    expect(store.getState().pendingAttachments.s1?.map((attachment) => attachment.name)).toEqual(['notes.txt']);
    expect(store.getState().composerNotices.s1).toContain('The Offline demo cannot look at images');

    link.answer('turn.message.submit', ({ sessionId, messageId, text }) => ({
      ok: true,
      result: {
        message: {
          sessionId,
          messageId,
          text,
          state: 'started' as const,
          turnId: messageId,
          createdAt: 1,
          updatedAt: 1,
        },
        disposition: 'started' as const,
      },
    }));
    store.getState().setDraft('s1', 'read this');
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit')).toEqual([
      { sessionId: 's1', messageId: 'id-3', text: 'read this', placement: 'next_turn', attachmentIds: ['id-1'] },
    ]);
    expect(store.getState().pendingAttachments.s1).toEqual([]);
  });

  it('sends files with a follow-up queued while a turn runs, and gives them back when Stop cancels it', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('attachment.add', ({ attachmentId, name }) => ({
      ok: true,
      result: { attachment: record(attachmentId, name) },
    }));
    await store.getState().attachFiles('s1', [new File(['hello'], 'notes.txt')]);
    link.push({ kind: 'session.changed', session: session({ sessionId: 's1', activity: 'running', revision: 2 }) });
    store.getState().flushEvents();
    const attachments = [
      { attachmentId: 'id-1', name: 'notes.txt', mediaType: 'text/plain', kind: 'text' as const, sizeBytes: 5 },
    ];
    const queuedMessage = {
      sessionId: 's1',
      messageId: 'id-2',
      text: 'read this',
      state: 'queued' as const,
      turnId: null,
      createdAt: 1,
      updatedAt: 1,
      attachments,
    };
    link.answer('turn.message.submit', () => ({
      ok: true,
      result: { message: queuedMessage, disposition: 'queued' as const },
    }));
    store.getState().setDraft('s1', 'read this');
    await store.getState().sendDraft('s1');
    expect(link.callsOf('turn.message.submit')).toEqual([
      { sessionId: 's1', messageId: 'id-2', text: 'read this', placement: 'next_turn', attachmentIds: ['id-1'] },
    ]);
    expect(store.getState().pendingAttachments.s1).toEqual([]);
    expect(store.getState().readDraft('s1')).toBe('');

    link.answer('turn.stop', () => ({
      ok: true,
      result: {
        outcome: 'stopped' as const,
        turn: null,
        cancelledMessages: [{ ...queuedMessage, state: 'cancelled' as const }],
      },
    }));
    await store.getState().stopTurn('s1');
    expect(store.getState().readDraft('s1')).toBe('read this');
    expect(store.getState().pendingAttachments.s1?.map((attachment) => attachment.name)).toEqual(['notes.txt']);
  });

  it('keeps the files and the text when the message could not be sent', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('attachment.add', ({ attachmentId, name }) => ({
      ok: true,
      result: { attachment: record(attachmentId, name) },
    }));
    await store.getState().attachFiles('s1', [new File(['hello'], 'notes.txt')]);
    link.answer('turn.message.submit', () => ({
      ok: false,
      error: { code: 'invalid_input', message: '“notes.txt” cannot be sent.' },
    }));
    store.getState().setDraft('s1', 'read this');
    await store.getState().sendDraft('s1');
    expect(store.getState().readDraft('s1')).toBe('read this');
    expect(store.getState().pendingAttachments.s1?.map((attachment) => attachment.name)).toEqual(['notes.txt']);
  });
});
