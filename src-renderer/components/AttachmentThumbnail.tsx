import { useEffect } from 'react';
import type { AttachmentRef } from '../../src-shared/attachment-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import '../styles/attachment-thumbnails.css';

/** A small preview of an attached image, read from the host's data directory; its alt text is the file name. */
export function AttachmentThumbnail({ attachment }: { attachment: AttachmentRef }) {
  const store = useStoreApi();
  const image = useAppStore((state) => state.attachmentImages[attachment.attachmentId]);
  useEffect(() => {
    if (image === undefined) void store.getState().loadAttachmentImage(attachment.attachmentId);
  }, [store, image, attachment.attachmentId]);
  if (image?.status === 'ready')
    return (
      <img className="attachment-thumbnail" src={image.src} alt={attachment.name} data-testid="attachment-thumbnail" />
    );
  if (image?.status === 'missing') return null;
  return <span className="attachment-thumbnail attachment-thumbnail-loading" aria-hidden="true" />;
}
