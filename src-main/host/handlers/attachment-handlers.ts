import type { HandlerTable } from '../handler';

export const attachmentHandlers: HandlerTable<'attachment.add' | 'attachment.read'> = {
  'attachment.add': ({ runtime }, input) => runtime.attachments.add(input),
  'attachment.read': ({ runtime }, input) => runtime.attachments.read(input.attachmentId),
};
