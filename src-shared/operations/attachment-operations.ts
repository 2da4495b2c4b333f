import { z } from 'zod';
import {
  MAX_ATTACHMENT_NAME_LENGTH,
  MAX_ATTACHMENTS_PER_MESSAGE,
  MAX_IMAGE_ATTACHMENT_BYTES,
  type AttachmentRecord,
} from '../attachment-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

/** The longest base64 text the largest allowed file takes. */
const MAX_BASE64_LENGTH = Math.ceil(MAX_IMAGE_ATTACHMENT_BYTES / 3) * 4;

/** The attachments a message carries: ids from `attachment.add`, in the order they were attached. */
export const attachmentIds = z
  .array(id)
  .max(MAX_ATTACHMENTS_PER_MESSAGE, `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments.`);

export const attachmentOperations = {
  /** Stores a file for the session's next message (client-chosen id: a retry returns the same record). */
  'attachment.add': defineOperation<{ attachment: AttachmentRecord }>()({
    mode: 'command',
    input: z.strictObject({
      sessionId: id,
      attachmentId: id,
      name: wellFormedString().trim().min(1, 'A file needs a name').max(MAX_ATTACHMENT_NAME_LENGTH),
      dataBase64: z
        .base64('The file’s content is not base64')
        .max(MAX_BASE64_LENGTH, 'The file is too large to attach.'),
    }),
    errors: ['not_found', 'session_archived', 'invalid_input', 'operation_conflict'],
  }),
  /** A stored attachment and its bytes (the transcript shows images from it). */
  'attachment.read': defineOperation<{ attachment: AttachmentRecord; dataBase64: string }>()({
    mode: 'query',
    input: z.strictObject({ attachmentId: id }),
    errors: ['not_found'],
  }),
} as const;
