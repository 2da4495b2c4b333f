import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachmentKind, AttachmentRecord } from '../../src-shared/attachment-model';
import type { Db } from './database';

export interface NewAttachment {
  readonly attachmentId: string;
  readonly sessionId: string;
  readonly name: string;
  readonly mediaType: string;
  readonly kind: AttachmentKind;
  readonly bytes: Uint8Array;
  readonly now: number;
}

/**
 * Attachments: a row per attachment, the bytes in `<data dir>/attachments/<sha256[0..2]>/<sha256>`,
 * written once per content (atomically: a temporary file renamed into place).
 */
export interface AttachmentStore {
  /** Writes the bytes (unless that content is already stored) and the row. */
  insert(attachment: NewAttachment): AttachmentRecord;
  get(attachmentId: string): AttachmentRecord | null;
  /** The stored bytes; null when the file has gone missing from the data directory. */
  bytes(record: AttachmentRecord): Buffer | null;
}

interface Row {
  attachment_id: string;
  session_id: string;
  name: string;
  media_type: string;
  kind: AttachmentKind;
  size_bytes: number;
  sha256: string;
  created_at: number;
}

function toRecord(row: Row): AttachmentRecord {
  return {
    attachmentId: row.attachment_id,
    sessionId: row.session_id,
    name: row.name,
    mediaType: row.media_type,
    kind: row.kind,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}

export function createAttachmentStore(db: Db, dataDir: string): AttachmentStore {
  const root = join(dataDir, 'attachments');
  const pathOf = (sha256: string) => join(root, sha256.slice(0, 2), sha256);
  const insert = db.prepare(`
    INSERT INTO attachments (attachment_id, session_id, name, media_type, kind, size_bytes, sha256, created_at)
    VALUES (@attachmentId, @sessionId, @name, @mediaType, @kind, @sizeBytes, @sha256, @createdAt)`);
  const get = db.prepare<[string], Row>('SELECT * FROM attachments WHERE attachment_id = ?');

  function writeContent(sha256: string, bytes: Uint8Array): void {
    const path = pathOf(sha256);
    if (existsSync(path)) return;
    mkdirSync(join(root, sha256.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
  }

  return {
    insert(attachment) {
      const sha256 = createHash('sha256').update(attachment.bytes).digest('hex');
      writeContent(sha256, attachment.bytes);
      const record: AttachmentRecord = {
        attachmentId: attachment.attachmentId,
        sessionId: attachment.sessionId,
        name: attachment.name,
        mediaType: attachment.mediaType,
        kind: attachment.kind,
        sizeBytes: attachment.bytes.length,
        sha256,
        createdAt: attachment.now,
      };
      insert.run(record);
      return record;
    },
    get(attachmentId) {
      const row = get.get(attachmentId);
      return row === undefined ? null : toRecord(row);
    },
    bytes(record) {
      try {
        return readFileSync(pathOf(record.sha256));
      } catch {
        return null;
      }
    },
  };
}
