import type { AttachmentRef } from '../../src-shared/attachment-model';
import type { QueuedMessage, QueuedMessageState } from '../../src-shared/model';
import type { Db } from './database';

/** Follow-up messages submitted while a turn runs; each starts as its own turn when the session frees. */
export interface QueueStore {
  insert(message: {
    sessionId: string;
    messageId: string;
    text: string;
    attachments?: readonly AttachmentRef[];
    now: number;
  }): QueuedMessage;
  get(sessionId: string, messageId: string): QueuedMessage | null;
  setState(
    sessionId: string,
    messageId: string,
    state: QueuedMessageState,
    turnId: string | null,
    now: number,
  ): QueuedMessage;
  /** Rewrites a message's text (the person edited it while it waited). */
  setText(sessionId: string, messageId: string, text: string, now: number): QueuedMessage;
  /** The oldest message still queued in a session. */
  nextQueued(sessionId: string): QueuedMessage | null;
  queued(sessionId: string): QueuedMessage[];
  list(sessionId: string, messageIds?: readonly string[]): QueuedMessage[];
  /** Sessions with queued messages (startup reads this). */
  sessionsWithQueued(): string[];
}

interface MessageRow {
  session_id: string;
  message_id: string;
  text: string;
  state: QueuedMessageState;
  turn_id: string | null;
  created_at: number;
  updated_at: number;
  /** JSON: the files the message carries (an empty list for none). */
  attachments: string;
}

function toMessage(row: MessageRow): QueuedMessage {
  const attachments = JSON.parse(row.attachments) as AttachmentRef[];
  return {
    sessionId: row.session_id,
    messageId: row.message_id,
    text: row.text,
    state: row.state,
    turnId: row.turn_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(attachments.length === 0 ? {} : { attachments }),
  };
}

export function createQueueStore(db: Db): QueueStore {
  const insert = db.prepare(`
    INSERT INTO queued_messages (session_id, message_id, text, state, turn_id, created_at, updated_at, attachments)
    VALUES (@sessionId, @messageId, @text, 'queued', NULL, @now, @now, @attachments)`);
  const get = db.prepare<[string, string], MessageRow>(
    'SELECT * FROM queued_messages WHERE session_id = ? AND message_id = ?',
  );
  const setState = db.prepare(
    'UPDATE queued_messages SET state = ?, turn_id = ?, updated_at = ? WHERE session_id = ? AND message_id = ?',
  );
  const setText = db.prepare(
    'UPDATE queued_messages SET text = ?, updated_at = ? WHERE session_id = ? AND message_id = ?',
  );
  const queued = db.prepare<[string], MessageRow>(
    "SELECT * FROM queued_messages WHERE session_id = ? AND state = 'queued' ORDER BY created_at, rowid",
  );
  const recent = db.prepare<[string], MessageRow>(
    'SELECT * FROM queued_messages WHERE session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 200',
  );
  const sessions = db.prepare<[], { session_id: string }>(
    "SELECT DISTINCT session_id FROM queued_messages WHERE state = 'queued'",
  );

  const store: QueueStore = {
    insert(message) {
      insert.run({
        sessionId: message.sessionId,
        messageId: message.messageId,
        text: message.text,
        now: message.now,
        attachments: JSON.stringify(message.attachments ?? []),
      });
      const row = get.get(message.sessionId, message.messageId);
      if (row === undefined) throw new Error(`Message ${message.messageId} vanished after insert`);
      return toMessage(row);
    },
    get(sessionId, messageId) {
      const row = get.get(sessionId, messageId);
      return row === undefined ? null : toMessage(row);
    },
    setState(sessionId, messageId, state, turnId, now) {
      setState.run(state, turnId, now, sessionId, messageId);
      const updated = store.get(sessionId, messageId);
      if (updated === null) throw new Error(`Message ${messageId} does not exist`);
      return updated;
    },
    setText(sessionId, messageId, text, now) {
      setText.run(text, now, sessionId, messageId);
      const updated = store.get(sessionId, messageId);
      if (updated === null) throw new Error(`Message ${messageId} does not exist`);
      return updated;
    },
    nextQueued(sessionId) {
      const row = queued.get(sessionId);
      return row === undefined ? null : toMessage(row);
    },
    queued(sessionId) {
      return queued.all(sessionId).map(toMessage);
    },
    list(sessionId, messageIds) {
      if (messageIds === undefined) return recent.all(sessionId).reverse().map(toMessage);
      return messageIds.flatMap((messageId) => {
        const row = get.get(sessionId, messageId);
        return row === undefined ? [] : [toMessage(row)];
      });
    },
    sessionsWithQueued() {
      return sessions.all().map((row) => row.session_id);
    },
  };
  return store;
}
