import type { Migration } from './migration';

/**
 * Files on a queued follow-up: the attachments (JSON, as the transcript keeps them) a message sent
 * while a turn runs carries into the turn it starts later, across a restart like the queue itself.
 */
export const migration025QueuedAttachments: Migration = {
  version: 25,
  name: 'queued attachments',
  up: `
    ALTER TABLE queued_messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
  `,
};
