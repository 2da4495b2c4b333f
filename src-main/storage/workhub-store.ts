import type { CandidateState } from '../../src-shared/workhub-model';
import type { Db } from './database';

export interface StoredAction {
  readonly actionId: string;
  readonly proposal: unknown;
  readonly result: unknown;
  readonly createdAt: number;
}

export interface StoredDelegation {
  readonly delegationId: string;
  readonly actionId: string;
  readonly targetSessionId: string;
  readonly targetTurnId: string;
  readonly text: string;
  readonly createdAt: number;
}

export interface CandidateEntry {
  readonly candidateRef: string;
  readonly sessionId: string;
  readonly state: CandidateState;
}

export interface SearchHit {
  readonly sessionId: string;
  readonly inTitle: boolean;
  readonly rank: number;
}

/** The WorkHub's record: actions, delegations, candidate sets and the session search index. */
export interface WorkHubStore {
  action(actionId: string): StoredAction | null;
  recordAction(action: StoredAction): void;
  insertDelegation(delegation: StoredDelegation): void;
  delegationOfAction(actionId: string): StoredDelegation | null;
  latestDelegationTo(sessionId: string): StoredDelegation | null;
  delegations(limit: number): StoredDelegation[];
  saveCandidateSet(candidateSetId: string, entries: readonly CandidateEntry[], now: number): void;
  candidateSet(candidateSetId: string): CandidateEntry[] | null;
  /** Replaces a session's entry in the search index. */
  index(sessionId: string, title: string, body: string): void;
  unindex(sessionId: string): void;
  /** Sessions matching the words, best first. */
  search(words: readonly string[], limit: number): SearchHit[];
}

export function createWorkHubStore(db: Db): WorkHubStore {
  const getAction = db.prepare<[string], { action_id: string; proposal: string; result: string; created_at: number }>(
    'SELECT * FROM workhub_actions WHERE action_id = ?',
  );
  const insertAction = db.prepare('INSERT INTO workhub_actions (action_id, proposal, result, created_at) VALUES (?, ?, ?, ?)');
  const insertDelegation = db.prepare(`
    INSERT INTO delegations (delegation_id, action_id, target_session_id, target_turn_id, text, created_at)
    VALUES (@delegationId, @actionId, @targetSessionId, @targetTurnId, @text, @createdAt)`);
  type DelegationRow = { delegation_id: string; action_id: string; target_session_id: string; target_turn_id: string; text: string; created_at: number };
  const toDelegation = (row: DelegationRow): StoredDelegation => ({
    delegationId: row.delegation_id,
    actionId: row.action_id,
    targetSessionId: row.target_session_id,
    targetTurnId: row.target_turn_id,
    text: row.text,
    createdAt: row.created_at,
  });
  const ofAction = db.prepare<[string], DelegationRow>('SELECT * FROM delegations WHERE action_id = ?');
  const latestTo = db.prepare<[string], DelegationRow>('SELECT * FROM delegations WHERE target_session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1');
  const recent = db.prepare<[number], DelegationRow>('SELECT * FROM delegations ORDER BY created_at DESC, rowid DESC LIMIT ?');
  const saveSet = db.prepare('INSERT OR REPLACE INTO candidate_sets (candidate_set_id, entries, created_at) VALUES (?, ?, ?)');
  const getSet = db.prepare<[string], { entries: string }>('SELECT entries FROM candidate_sets WHERE candidate_set_id = ?');
  const unindex = db.prepare('DELETE FROM session_search WHERE session_id = ?');
  const index = db.prepare('INSERT INTO session_search (session_id, title, body) VALUES (?, ?, ?)');
  const search = db.prepare<[string, number], { session_id: string; rank: number; in_title: number }>(`
    SELECT session_id, bm25(session_search, 0, 4.0, 1.0) AS rank,
           CASE WHEN highlight(session_search, 1, '[', ']') LIKE '%[%' THEN 1 ELSE 0 END AS in_title
    FROM session_search WHERE session_search MATCH ? ORDER BY rank LIMIT ?`);

  return {
    action(actionId) {
      const row = getAction.get(actionId);
      return row === undefined
        ? null
        : { actionId: row.action_id, proposal: JSON.parse(row.proposal) as unknown, result: JSON.parse(row.result) as unknown, createdAt: row.created_at };
    },
    recordAction(action) {
      insertAction.run(action.actionId, JSON.stringify(action.proposal), JSON.stringify(action.result), action.createdAt);
    },
    insertDelegation(delegation) {
      insertDelegation.run(delegation);
    },
    delegationOfAction(actionId) {
      const row = ofAction.get(actionId);
      return row === undefined ? null : toDelegation(row);
    },
    latestDelegationTo(sessionId) {
      const row = latestTo.get(sessionId);
      return row === undefined ? null : toDelegation(row);
    },
    delegations(limit) {
      return recent.all(limit).map(toDelegation);
    },
    saveCandidateSet(candidateSetId, entries, now) {
      saveSet.run(candidateSetId, JSON.stringify(entries), now);
    },
    candidateSet(candidateSetId) {
      const row = getSet.get(candidateSetId);
      return row === undefined ? null : (JSON.parse(row.entries) as CandidateEntry[]);
    },
    index(sessionId, title, body) {
      unindex.run(sessionId);
      index.run(sessionId, title, body);
    },
    unindex(sessionId) {
      unindex.run(sessionId);
    },
    search(words, limit) {
      if (words.length === 0) return [];
      const query = words.map((word) => `"${word.replaceAll('"', '""')}"*`).join(' OR ');
      return search.all(query, limit).map((row) => ({ sessionId: row.session_id, rank: row.rank, inTitle: row.in_title === 1 }));
    },
  };
}
