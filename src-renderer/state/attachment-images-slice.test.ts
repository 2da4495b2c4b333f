import { describe, expect, it, vi } from 'vitest';
import type { AttachmentRecord } from '../../src-shared/attachment-model';
import { keepNewest } from './attachment-images-slice';
import { setupStore as setup } from './test-store';

const record = (attachmentId: string, kind: 'image' | 'text'): AttachmentRecord => ({
  attachmentId,
  sessionId: 's1',
  name: kind === 'image' ? 'screen.png' : 'notes.txt',
  mediaType: kind === 'image' ? 'image/png' : 'text/plain',
  kind,
  sizeBytes: 4,
  sha256: 'ab',
  createdAt: 0,
});

describe('attachment thumbnails', () => {
  it('read an image once from the host and show it as a data: URL', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('attachment.read', ({ attachmentId }) => ({
      ok: true,
      result: { attachment: record(attachmentId, 'image'), dataBase64: 'iVBORw==' },
    }));
    const first = store.getState().loadAttachmentImage('a1');
    expect(store.getState().attachmentImages.a1).toEqual({ status: 'loading' });
    await Promise.all([first, store.getState().loadAttachmentImage('a1')]);
    expect(store.getState().attachmentImages.a1).toEqual({ status: 'ready', src: 'data:image/png;base64,iVBORw==' });
    expect(link.callsOf('attachment.read')).toEqual([{ attachmentId: 'a1' }]);
  });

  it('say an image is missing when the host no longer has it, and try again after a failed read', async () => {
    const { store, link } = setup();
    await vi.waitFor(() => expect(store.getState().sessions.listLoaded).toBe(true));
    link.answer('attachment.read', ({ attachmentId }) =>
      attachmentId === 'gone'
        ? { ok: false, error: { code: 'not_found', message: 'That attachment is no longer stored.' } }
        : { ok: false, error: { code: 'internal_failure', message: 'Lost the line.' } },
    );
    await store.getState().loadAttachmentImage('gone');
    expect(store.getState().attachmentImages.gone).toEqual({ status: 'missing' });
    await store.getState().loadAttachmentImage('flaky');
    expect(store.getState().attachmentImages.flaky).toBeUndefined();
    await store.getState().loadAttachmentImage('flaky');
    expect(link.callsOf('attachment.read')).toHaveLength(3);
  });

  it('keep only the newest images', () => {
    expect(Object.keys(keepNewest({ a: 1, b: 2, c: 3 }, 2))).toEqual(['b', 'c']);
    expect(keepNewest({ a: 1 }, 2)).toEqual({ a: 1 });
  });
});
