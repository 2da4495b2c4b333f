import { useRef, type ClipboardEvent, type DragEvent } from 'react';
import { formatBytes, type AttachmentRef } from '../../src-shared/attachment-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AttachmentThumbnail } from './AttachmentThumbnail';
import { CloseIcon } from './icons';

/** Drop and paste handlers for the composer: files dropped or pasted onto it are attached. */
export function useAttachmentDrop(sessionId: string) {
  const store = useStoreApi();
  const attach = (files: FileList | null) => {
    if (files !== null && files.length > 0) void store.getState().attachFiles(sessionId, [...files]);
  };
  return {
    onDragOver: (event: DragEvent) => {
      if (event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent) => {
      if (event.dataTransfer.files.length === 0) return;
      event.preventDefault();
      attach(event.dataTransfer.files);
    },
    onPaste: (event: ClipboardEvent) => {
      if (event.clipboardData.files.length === 0) return;
      event.preventDefault();
      attach(event.clipboardData.files);
    },
  };
}

/** The files waiting to go with the next message, each removable, and a button to pick more. */
export function AttachmentTray({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const pending = useAppStore((state) => state.pendingAttachments[sessionId]);
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="attachment-tray">
      {pending !== undefined && pending.length > 0 ? (
        <ul className="attachment-list" aria-label="Attached files">
          {pending.map((attachment) => (
            <li key={attachment.attachmentId} className="attachment-chip" data-testid="pending-attachment">
              {attachment.kind === 'image' ? <AttachmentThumbnail attachment={attachment} /> : null}
              <AttachmentLabel attachment={attachment} />
              <button
                type="button"
                className="attachment-remove"
                aria-label={`Remove ${attachment.name}`}
                onClick={() => store.getState().removeAttachment(sessionId, attachment.attachmentId)}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        data-testid="attachment-input"
        onChange={(event) => {
          const files = event.target.files;
          if (files !== null && files.length > 0) void store.getState().attachFiles(sessionId, [...files]);
          event.target.value = '';
        }}
      />
      <button
        type="button"
        className="button attachment-add"
        title="Attach files (or drop or paste them here)"
        onClick={() => picker.current?.click()}
      >
        Attach files
      </button>
    </div>
  );
}

export function AttachmentLabel({ attachment }: { attachment: AttachmentRef }) {
  return (
    <span className="attachment-label">
      {attachment.name}{' '}
      <span className="attachment-size">
        ({attachment.kind === 'image' ? 'image' : 'text'}, {formatBytes(attachment.sizeBytes)})
      </span>
    </span>
  );
}

/** The files a sent message carried, as the transcript shows them. */
export function SentAttachments({ attachments }: { attachments: readonly AttachmentRef[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-list attachment-list-sent" aria-label="Attached files">
      {attachments.map((attachment) => (
        <li key={attachment.attachmentId} className="attachment-chip" data-testid="sent-attachment">
          {attachment.kind === 'image' ? <AttachmentThumbnail attachment={attachment} /> : null}
          <AttachmentLabel attachment={attachment} />
        </li>
      ))}
    </ul>
  );
}
