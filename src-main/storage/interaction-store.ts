import type {
  PermissionGrant,
  InteractionAnswer,
  InteractionCloseReason,
  InteractionRecord,
  InteractionRequest,
  InteractionStatus,
} from '../../src-shared/interaction-model';
import { readRecordedAnswer } from '../../src-shared/interaction-model';
import type { Db } from './database';

export interface NewInteraction {
  readonly interactionId: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly request: InteractionRequest;
  readonly now: number;
}

export interface InteractionSettlement {
  readonly status: Exclude<InteractionStatus, 'pending'>;
  /** Masked where secret. */
  readonly answer: InteractionAnswer | null;
  /** The vault id holding the unmasked answer, when it carries a secret. */
  readonly answerSecretId: string | null;
  readonly closeReason: InteractionCloseReason | null;
  readonly now: number;
}

export interface StoredInteraction extends InteractionRecord {
  readonly answerSecretId: string | null;
}

/** What agents asked and how each ask ended. A pending row survives restarts until answered or closed. */
export interface InteractionStore {
  insert(interaction: NewInteraction): StoredInteraction;
  get(interactionId: string): StoredInteraction | null;
  settle(interactionId: string, settlement: InteractionSettlement): StoredInteraction;
  /** Who is answering a pending interaction: a paired device's name, or null for the desktop (kept when the answer settles it). */
  noteAnsweredFrom(interactionId: string, from: string | null): void;
  pendingOfRun(runId: string): StoredInteraction | null;
  pendingOfSession(sessionId: string): StoredInteraction[];
  /** The answered interaction of a tool call, if any (for the continuation run). */
  byToolCall(runId: string, toolCallId: string): StoredInteraction | null;
  list(filter: { sessionId?: string; status?: InteractionStatus; limit: number }): StoredInteraction[];
  /** Whether the person allowed a tool for the rest of a session (an answered approval said so, not since revoked). */
  allowedForSession(sessionId: string, toolName: string): boolean;
  /** The session's standing grants, one per tool, newest first. */
  grantsOfSession(sessionId: string): PermissionGrant[];
  /** Revokes a tool's grant in a session; returns how many approvals it took back (0 when none stood). */
  revokeGrant(sessionId: string, toolName: string, now: number): number;
}

interface Row {
  interaction_id: string;
  session_id: string;
  turn_id: string;
  run_id: string;
  tool_call_id: string;
  request: string;
  status: InteractionStatus;
  answer: string | null;
  answer_secret_id: string | null;
  close_reason: InteractionCloseReason | null;
  answered_from: string | null;
  created_at: number;
  updated_at: number;
}

function toRecord(row: Row): StoredInteraction {
  return {
    interactionId: row.interaction_id,
    sessionId: row.session_id,
    turnId: row.turn_id,
    runId: row.run_id,
    toolCallId: row.tool_call_id,
    request: JSON.parse(row.request) as InteractionRequest,
    status: row.status,
    answer: row.answer === null ? null : readRecordedAnswer(JSON.parse(row.answer)),
    answerSecretId: row.answer_secret_id,
    closeReason: row.close_reason,
    ...(row.answered_from === null ? {} : { answeredFrom: row.answered_from }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createInteractionStore(db: Db): InteractionStore {
  const insert = db.prepare(`
    INSERT INTO interactions (interaction_id, session_id, turn_id, run_id, tool_call_id, request, status, created_at, updated_at)
    VALUES (@interactionId, @sessionId, @turnId, @runId, @toolCallId, @request, 'pending', @now, @now)`);
  const get = db.prepare<[string], Row>('SELECT * FROM interactions WHERE interaction_id = ?');
  const answeredFrom = db.prepare<{ interactionId: string; from: string | null }>(
    "UPDATE interactions SET answered_from = @from WHERE interaction_id = @interactionId AND status = 'pending'",
  );
  const settle = db.prepare(`
    UPDATE interactions SET status = @status, answer = @answer, answer_secret_id = @answerSecretId,
      close_reason = @closeReason, updated_at = @now
    WHERE interaction_id = @interactionId AND status = 'pending'`);
  // A blocked host's card (kind network) holds up no run: it is not a run's pending interaction.
  const pendingOfRun = db.prepare<[string], Row>(
    "SELECT * FROM interactions WHERE run_id = ? AND status = 'pending' AND json_extract(request, '$.kind') != 'network'",
  );
  const pendingOfSession = db.prepare<[string], Row>(
    "SELECT * FROM interactions WHERE session_id = ? AND status = 'pending' ORDER BY created_at",
  );
  const byToolCall = db.prepare<[string, string], Row>(
    'SELECT * FROM interactions WHERE run_id = ? AND tool_call_id = ?',
  );

  const standingGrant = `session_id = @sessionId AND status = 'answered' AND json_extract(request, '$.kind') = 'permission'
      AND json_extract(answer, '$.decision') = 'allow_session' AND grant_revoked_at IS NULL`;
  const allowed = db.prepare<{ sessionId: string; toolName: string }, { found: number }>(`
    SELECT 1 AS found FROM interactions WHERE ${standingGrant} AND json_extract(request, '$.toolName') = @toolName LIMIT 1`);
  const grants = db.prepare<{ sessionId: string }, { tool_name: string; granted_at: number; request: string }>(`
    SELECT json_extract(request, '$.toolName') AS tool_name, updated_at AS granted_at, request FROM interactions
    WHERE ${standingGrant} ORDER BY updated_at DESC, interaction_id DESC`);
  const revoke = db.prepare<{ sessionId: string; toolName: string; now: number }>(`
    UPDATE interactions SET grant_revoked_at = @now WHERE ${standingGrant} AND json_extract(request, '$.toolName') = @toolName`);

  const store: InteractionStore = {
    allowedForSession(sessionId, toolName) {
      return allowed.get({ sessionId, toolName }) !== undefined;
    },
    grantsOfSession(sessionId) {
      const seen = new Set<string>();
      const result: PermissionGrant[] = [];
      for (const row of grants.all({ sessionId })) {
        if (seen.has(row.tool_name)) continue;
        seen.add(row.tool_name);
        const request = JSON.parse(row.request) as InteractionRequest;
        result.push({
          toolName: row.tool_name,
          grantedAt: row.granted_at,
          example: request.kind === 'permission' ? request.summary : '',
        });
      }
      return result;
    },
    revokeGrant(sessionId, toolName, now) {
      return revoke.run({ sessionId, toolName, now }).changes;
    },
    insert(interaction) {
      insert.run({ ...interaction, request: JSON.stringify(interaction.request) });
      const stored = store.get(interaction.interactionId);
      if (stored === null) throw new Error(`Interaction ${interaction.interactionId} vanished after insert`);
      return stored;
    },
    noteAnsweredFrom(interactionId, from) {
      answeredFrom.run({ interactionId, from });
    },
    get(interactionId) {
      const row = get.get(interactionId);
      return row === undefined ? null : toRecord(row);
    },
    settle(interactionId, settlement) {
      const changed = settle.run({
        interactionId,
        status: settlement.status,
        answer: settlement.answer === null ? null : JSON.stringify(settlement.answer),
        answerSecretId: settlement.answerSecretId,
        closeReason: settlement.closeReason,
        now: settlement.now,
      }).changes;
      if (changed === 0) throw new Error(`Interaction ${interactionId} is not pending`);
      const stored = store.get(interactionId);
      if (stored === null) throw new Error(`Interaction ${interactionId} vanished`);
      return stored;
    },
    pendingOfRun(runId) {
      const row = pendingOfRun.get(runId);
      return row === undefined ? null : toRecord(row);
    },
    pendingOfSession(sessionId) {
      return pendingOfSession.all(sessionId).map(toRecord);
    },
    byToolCall(runId, toolCallId) {
      const row = byToolCall.get(runId, toolCallId);
      return row === undefined ? null : toRecord(row);
    },
    list({ sessionId, status, limit }) {
      const conditions: string[] = [];
      const params: Record<string, unknown> = { limit };
      if (sessionId !== undefined) {
        conditions.push('session_id = @sessionId');
        params.sessionId = sessionId;
      }
      if (status !== undefined) {
        conditions.push('status = @status');
        params.status = status;
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      return db
        .prepare<Record<string, unknown>, Row>(
          `SELECT * FROM interactions ${where} ORDER BY created_at DESC, interaction_id DESC LIMIT @limit`,
        )
        .all(params)
        .map(toRecord);
    },
  };
  return store;
}
