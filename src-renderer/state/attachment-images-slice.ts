import type { SliceCreator } from './app-state';

/** An attached image as the screen shows it: being read, ready (a data: URL), or gone from the host. */
export type AttachmentImage =
  { readonly status: 'loading' } | { readonly status: 'ready'; readonly src: string } | { readonly status: 'missing' };

/** How many images are kept read at once; the oldest are read again when shown again. */
export const MAX_KEPT_IMAGES = 48;

/** Thumbnails of attached images (the composer's pending files and the transcript), read through `attachment.read`. */
export interface AttachmentImagesSlice {
  readonly attachmentImages: Readonly<Record<string, AttachmentImage>>;
  /** Reads an image attachment once (a second call while it is read or kept does nothing). */
  loadAttachmentImage(attachmentId: string): Promise<void>;
}

/** Keeps the newest `max` entries (insertion order is reading order). */
export function keepNewest<T>(entries: Readonly<Record<string, T>>, max: number): Record<string, T> {
  const all = Object.entries(entries);
  return Object.fromEntries(all.slice(Math.max(0, all.length - max)));
}

export const createAttachmentImagesSlice: SliceCreator<AttachmentImagesSlice> = (set, get, deps) => ({
  attachmentImages: {},

  async loadAttachmentImage(attachmentId) {
    if (get().attachmentImages[attachmentId] !== undefined) return;
    const put = (image: AttachmentImage) =>
      set((state) => ({
        attachmentImages: keepNewest({ ...state.attachmentImages, [attachmentId]: image }, MAX_KEPT_IMAGES),
      }));
    put({ status: 'loading' });
    const outcome = await deps.link.invoke('attachment.read', { attachmentId });
    if (!outcome.ok || outcome.result.attachment.kind !== 'image') {
      // Unreachable host: forget the attempt so the next showing tries again; a missing file stays missing.
      if (!outcome.ok && outcome.error.code !== 'not_found') {
        set((state) => ({
          attachmentImages: Object.fromEntries(
            Object.entries(state.attachmentImages).filter(([key]) => key !== attachmentId),
          ),
        }));
        return;
      }
      put({ status: 'missing' });
      return;
    }
    const { attachment, dataBase64 } = outcome.result;
    put({ status: 'ready', src: `data:${attachment.mediaType};base64,${dataBase64}` });
  },
});
