import type { BranchMode, BranchOrigin, BranchPoint } from '../../src-shared/branch-model';
import type { Db } from './database';

export interface NewBranch {
  readonly sessionId: string;
  readonly requestId: string;
  readonly sourceSessionId: string;
  readonly sourceItemId: string;
  readonly sourceTurnId: string;
  readonly cutPosition: number;
  readonly cutOrdinal: number;
  readonly mode: BranchMode;
  readonly text: string;
  readonly turnId: string;
  readonly now: number;
}

export interface BranchRecord extends NewBranch {
  readonly state: 'copying' | 'ready';
  readonly copiedThrough: number;
}

/** A turn as a branch family's versions see it; a copied turn keeps its id and creation time. */
export interface FamilyTurn {
  readonly turnId: string;
  readonly ordinal: number;
  readonly createdAt: number;
}

/** A session of a branch family with its turns in order; `branch` when it was made from another at `cutOrdinal`. */
export interface FamilyMember {
  readonly sessionId: string;
  readonly branch: { readonly cutOrdinal: number; readonly mode: BranchMode } | null;
  readonly turns: readonly FamilyTurn[];
}

/**
 * Branch records and the copy of a conversation into a branch. Copied turns, runs and transcript
 * items get ids derived from the branch's session id (`<branch>:<ordinal>.<attempt>` for runs,
 * `<branch>:<position>` for items), so a copy resumed after a crash writes exactly the same rows.
 */
/** Where a branch made at one message cuts its source: before the turn that message belongs to. */
export interface BranchCut {
  readonly kind: string;
  readonly turnId: string;
  readonly turnText: string;
  readonly cutPosition: number;
  readonly cutOrdinal: number;
}

export interface BranchStore {
  /** The cut for a branch at `itemId` of `sessionId`; null when that session has no such item (or turn). */
  cutAt(sessionId: string, itemId: string): BranchCut | null;
  insert(branch: NewBranch): void;
  byRequest(requestId: string): BranchRecord | null;
  get(sessionId: string): BranchRecord | null;
  /** Branches whose copy has not finished (recovery reads this). */
  copying(): BranchRecord[];
  /** Copies the source's turns before the cut with their runs (the first step of a copy). */
  copyTurns(branch: BranchRecord): void;
  /**
   * Copies up to `limit` more transcript items; when none are left, marks the branch ready and sets its
   * next position. Returns how many were copied. Call inside a transaction.
   */
  copyItems(branch: BranchRecord, limit: number): number;
  origin(sessionId: string): BranchOrigin | null;
  branchesOf(sessionId: string): BranchPoint[];
  /**
   * The sessions of `sessionId`'s branch family (the sessions it branched from, theirs, and every
   * ready branch made from any of them) with their turns, oldest first; just the session itself when it
   * has no branch links.
   */
  family(sessionId: string): FamilyMember[];
  /** The person's message of a turn and its last answer. */
  turnMessages(sessionId: string, turnId: string): { messageItemId: string | null; answerItemId: string | null };
}

interface BranchRow {
  session_id: string;
  request_id: string;
  source_session_id: string;
  source_item_id: string;
  source_turn_id: string;
  cut_position: number;
  cut_ordinal: number;
  mode: BranchMode;
  text: string;
  turn_id: string;
  state: 'copying' | 'ready';
  copied_through: number;
  created_at: number;
}

function toRecord(row: BranchRow): BranchRecord {
  return {
    sessionId: row.session_id,
    requestId: row.request_id,
    sourceSessionId: row.source_session_id,
    sourceItemId: row.source_item_id,
    sourceTurnId: row.source_turn_id,
    cutPosition: row.cut_position,
    cutOrdinal: row.cut_ordinal,
    mode: row.mode,
    text: row.text,
    turnId: row.turn_id,
    state: row.state,
    copiedThrough: row.copied_through,
    now: row.created_at,
  };
}

export function createBranchStore(db: Db): BranchStore {
  return { ...branchCopying(db), ...branchFamily(db) };
}

/** Making a branch: its request, its row, and the turns, runs and items copied from its source in batches. */
function branchCopying(
  db: Db,
): Pick<BranchStore, 'cutAt' | 'insert' | 'byRequest' | 'get' | 'copying' | 'copyTurns' | 'copyItems'> {
  const insert = db.prepare(`
    INSERT INTO session_branches (session_id, request_id, source_session_id, source_item_id, source_turn_id, cut_position,
                                  cut_ordinal, mode, text, turn_id, state, copied_through, created_at)
    VALUES (@sessionId, @requestId, @sourceSessionId, @sourceItemId, @sourceTurnId, @cutPosition,
            @cutOrdinal, @mode, @text, @turnId, 'copying', -1, @now)`);
  const byRequest = db.prepare<[string], BranchRow>('SELECT * FROM session_branches WHERE request_id = ?');
  const get = db.prepare<[string], BranchRow>('SELECT * FROM session_branches WHERE session_id = ?');
  const copying = db.prepare<[], BranchRow>(
    "SELECT * FROM session_branches WHERE state = 'copying' ORDER BY created_at",
  );
  const copyTurns = db.prepare(`
    INSERT OR IGNORE INTO turns (session_id, turn_id, ordinal, origin, text, max_steps, status, latest_run_id, created_at, updated_at)
    SELECT @branch, t.turn_id, t.ordinal, t.origin, t.text, t.max_steps, t.status,
           @branch || ':' || t.ordinal || '.' || r.attempt, t.created_at, t.updated_at
    FROM turns t JOIN runs r ON r.run_id = t.latest_run_id
    WHERE t.session_id = @source AND t.ordinal < @cutOrdinal`);
  const copyRuns = db.prepare(`
    INSERT OR IGNORE INTO runs (run_id, session_id, turn_id, attempt, kind, status, terminal_reason, stopped_from, error_code, error_message, started_at, ended_at)
    SELECT @branch || ':' || t.ordinal || '.' || r.attempt, @branch, r.turn_id, r.attempt, r.kind, r.status,
           r.terminal_reason, r.stopped_from, r.error_code, r.error_message, r.started_at, r.ended_at
    FROM runs r JOIN turns t ON t.session_id = r.session_id AND t.turn_id = r.turn_id
    WHERE r.session_id = @source AND t.ordinal < @cutOrdinal`);
  const copyItems = db.prepare<Record<string, unknown>, { position: number }>(`
    INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, data, created_at)
    SELECT @branch, i.position, @branch || ':' || i.position, i.turn_id,
           COALESCE(@branch || ':' || t.ordinal || '.' || r.attempt, @branch || ':' || i.run_id), i.kind, i.text, 'final', i.data, i.created_at
    FROM transcript_items i
    LEFT JOIN runs r ON r.run_id = i.run_id
    LEFT JOIN turns t ON t.session_id = r.session_id AND t.turn_id = r.turn_id
    WHERE i.session_id = @source AND i.position > @after AND i.position < @cut
    ORDER BY i.position LIMIT @limit
    RETURNING position`);
  const progress = db.prepare('UPDATE session_branches SET copied_through = ? WHERE session_id = ?');
  const finish = db.prepare(
    "UPDATE session_branches SET state = 'ready', copied_through = @cut - 1 WHERE session_id = @branch",
  );
  const setNextPosition = db.prepare('UPDATE sessions SET next_position = MAX(next_position, ?) WHERE session_id = ?');
  const cutAt = db.prepare<
    [string, string],
    { kind: string; turn_id: string; text: string; ordinal: number; first: number }
  >(`
    SELECT i.kind, i.turn_id, t.text, t.ordinal,
           (SELECT MIN(f.position) FROM transcript_items f WHERE f.session_id = i.session_id AND f.turn_id = i.turn_id) AS first
    FROM transcript_items i JOIN turns t ON t.session_id = i.session_id AND t.turn_id = i.turn_id
    WHERE i.session_id = ? AND i.item_id = ?`);

  return {
    cutAt(sessionId, itemId) {
      const row = cutAt.get(sessionId, itemId);
      return row === undefined
        ? null
        : { kind: row.kind, turnId: row.turn_id, turnText: row.text, cutPosition: row.first, cutOrdinal: row.ordinal };
    },
    insert(branch) {
      insert.run(branch);
    },
    byRequest(requestId) {
      const row = byRequest.get(requestId);
      return row === undefined ? null : toRecord(row);
    },
    get(sessionId) {
      const row = get.get(sessionId);
      return row === undefined ? null : toRecord(row);
    },
    copying() {
      return copying.all().map(toRecord);
    },
    copyTurns(branch) {
      const params = { branch: branch.sessionId, source: branch.sourceSessionId, cutOrdinal: branch.cutOrdinal };
      copyTurns.run(params);
      copyRuns.run(params);
    },
    copyItems(branch, limit) {
      const current = get.get(branch.sessionId);
      if (current === undefined || current.state === 'ready') return 0;
      const copied = copyItems.all({
        branch: branch.sessionId,
        source: branch.sourceSessionId,
        after: current.copied_through,
        cut: branch.cutPosition,
        limit,
      });
      const last = copied.reduce((highest, row) => Math.max(highest, row.position), current.copied_through);
      if (copied.length < limit) {
        finish.run({ branch: branch.sessionId, cut: branch.cutPosition });
        setNextPosition.run(branch.cutPosition, branch.sessionId);
      } else {
        progress.run(last, branch.sessionId);
      }
      return copied.length;
    },
  };
}

/** Where a session came from and what branched off it: its source, its branches, the whole family's turns. */
function branchFamily(db: Db): Pick<BranchStore, 'origin' | 'branchesOf' | 'family' | 'turnMessages'> {
  const origin = db.prepare<[string], BranchRow & { source_title: string | null }>(`
    SELECT b.*, s.title AS source_title FROM session_branches b LEFT JOIN sessions s ON s.session_id = b.source_session_id
    WHERE b.session_id = ?`);
  const branchesOf = db.prepare<
    [string],
    { session_id: string; title: string; source_item_id: string; mode: BranchMode; created_at: number }
  >(`
    SELECT b.session_id, s.title, b.source_item_id, b.mode, b.created_at
    FROM session_branches b JOIN sessions s ON s.session_id = b.session_id
    WHERE b.source_session_id = ? AND b.state = 'ready' ORDER BY b.created_at, b.session_id`);

  // Up to every session this one descends from, then down to every ready branch of any of them.
  const family = db.prepare<[string], { session_id: string; cut_ordinal: number | null; mode: BranchMode | null }>(`
    WITH RECURSIVE
      up(id) AS (SELECT ? UNION SELECT b.source_session_id FROM session_branches b JOIN up ON b.session_id = up.id),
      down(id) AS (SELECT id FROM up UNION SELECT b.session_id FROM session_branches b JOIN down ON b.source_session_id = down.id WHERE b.state = 'ready')
    SELECT s.session_id, b.cut_ordinal, b.mode
    FROM down JOIN sessions s ON s.session_id = down.id LEFT JOIN session_branches b ON b.session_id = s.session_id
    ORDER BY s.created_at, s.rowid`);
  const hasLinks = db.prepare<[string, string], { found: number }>(
    'SELECT 1 AS found FROM session_branches WHERE session_id = ? OR source_session_id = ? LIMIT 1',
  );
  const familyTurns = db.prepare<[string], { turn_id: string; ordinal: number; created_at: number }>(
    'SELECT turn_id, ordinal, created_at FROM turns WHERE session_id = ? ORDER BY ordinal',
  );
  const turnMessages = db.prepare<{ s: string; t: string }, { message: string | null; answer: string | null }>(`
    SELECT (SELECT item_id FROM transcript_items WHERE session_id = @s AND turn_id = @t AND kind = 'user_message' ORDER BY position LIMIT 1) AS message,
           (SELECT item_id FROM transcript_items WHERE session_id = @s AND turn_id = @t AND kind = 'assistant_message' ORDER BY position DESC LIMIT 1) AS answer`);

  return {
    origin(sessionId) {
      const row = origin.get(sessionId);
      if (row === undefined) return null;
      return {
        sourceSessionId: row.source_session_id,
        sourceTitle: row.source_title,
        atItemId: row.source_item_id,
        mode: row.mode,
        state: row.state,
        createdAt: row.created_at,
      };
    },
    branchesOf(sessionId) {
      return branchesOf.all(sessionId).map((row) => ({
        branchSessionId: row.session_id,
        title: row.title,
        atItemId: row.source_item_id,
        mode: row.mode,
        createdAt: row.created_at,
      }));
    },
    family(sessionId) {
      const turnsOf = (id: string): FamilyTurn[] =>
        familyTurns.all(id).map((row) => ({ turnId: row.turn_id, ordinal: row.ordinal, createdAt: row.created_at }));
      if (hasLinks.get(sessionId, sessionId) === undefined) return [{ sessionId, branch: null, turns: [] }];
      return family.all(sessionId).map((row) => ({
        sessionId: row.session_id,
        branch: row.cut_ordinal === null || row.mode === null ? null : { cutOrdinal: row.cut_ordinal, mode: row.mode },
        turns: turnsOf(row.session_id),
      }));
    },
    turnMessages(sessionId, turnId) {
      const row = turnMessages.get({ s: sessionId, t: turnId });
      return { messageItemId: row?.message ?? null, answerItemId: row?.answer ?? null };
    },
  };
}
