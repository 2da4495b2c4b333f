import type { OperationError } from '../../src-shared/errors';
import type { CandidateState } from '../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../src-shared/workhub-model';
import type { Db } from './database';

export interface StoredAction {
  readonly actionId: string;
  readonly requestId: string | null;
  readonly proposal: unknown;
  /** What it did, or (with `error`) null when it was refused while being tried. */
  readonly result: unknown;
  readonly error: OperationError | null;
  readonly createdAt: number;
}

export interface StoredDecision {
  readonly requestId: string;
  readonly status: 'done' | 'failed' | 'cancelled';
  /** The decision as the transcript shows it (a ProposalDecision). */
  readonly decision: unknown;
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
  /** A routed request's decision, if it has one. */
  decision(requestId: string): StoredDecision | null;
  /** Records a request's decision; a request is decided once (a second call throws). */
  recordDecision(decision: StoredDecision): void;
  /** The proposal a routed request got (the `data` of its proposal item in the WorkHub transcript), or null. */
  routedProposal(requestId: string): Record<string, unknown> | null;
  /** The request id of the newest proposal in the WorkHub transcript. */
  latestRequestId(): string | null;
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
  return { ...actionsAndDecisions(db), ...delegationsAndCandidates(db), ...sessionSearch(db) };
}

/** What the WorkHub did and what each routed request was decided. */
function actionsAndDecisions(
  db: Db,
): Pick<
  WorkHubStore,
  'action' | 'recordAction' | 'decision' | 'recordDecision' | 'routedProposal' | 'latestRequestId'
> {
  const getAction = db.prepare<
    [string],
    {
      action_id: string;
      request_id: string | null;
      proposal: string;
      result: string;
      error: string | null;
      created_at: number;
    }
  >('SELECT * FROM workhub_actions WHERE action_id = ?');
  const insertAction = db.prepare(
    'INSERT INTO workhub_actions (action_id, request_id, proposal, result, error, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const getDecision = db.prepare<
    [string],
    { request_id: string; status: StoredDecision['status']; decision: string; created_at: number }
  >('SELECT * FROM workhub_decisions WHERE request_id = ?');
  const proposalOf = db.prepare<[string, string], { data: string | null }>(
    "SELECT data FROM transcript_items WHERE session_id = ? AND turn_id = ? AND kind = 'proposal' ORDER BY position LIMIT 1",
  );
  const latestProposal = db.prepare<[string], { turn_id: string }>(
    "SELECT turn_id FROM transcript_items WHERE session_id = ? AND kind = 'proposal' ORDER BY position DESC LIMIT 1",
  );
  const insertDecision = db.prepare(
    'INSERT INTO workhub_decisions (request_id, status, decision, created_at) VALUES (?, ?, ?, ?)',
  );

  return {
    action(actionId) {
      const row = getAction.get(actionId);
      return row === undefined
        ? null
        : {
            actionId: row.action_id,
            requestId: row.request_id,
            proposal: JSON.parse(row.proposal) as unknown,
            result: JSON.parse(row.result) as unknown,
            error: row.error === null ? null : (JSON.parse(row.error) as OperationError),
            createdAt: row.created_at,
          };
    },
    recordAction(action) {
      const error =
        action.error === null ? null : JSON.stringify({ code: action.error.code, message: action.error.message });
      insertAction.run(
        action.actionId,
        action.requestId,
        JSON.stringify(action.proposal),
        JSON.stringify(action.result ?? null),
        error,
        action.createdAt,
      );
    },
    decision(requestId) {
      const row = getDecision.get(requestId);
      return row === undefined
        ? null
        : {
            requestId: row.request_id,
            status: row.status,
            decision: JSON.parse(row.decision) as unknown,
            createdAt: row.created_at,
          };
    },
    recordDecision(decision) {
      insertDecision.run(decision.requestId, decision.status, JSON.stringify(decision.decision), decision.createdAt);
    },
    routedProposal(requestId) {
      const data = proposalOf.get(WORKHUB_SESSION_ID, requestId)?.data;
      return data === undefined || data === null ? null : (JSON.parse(data) as Record<string, unknown>);
    },
    latestRequestId() {
      return latestProposal.get(WORKHUB_SESSION_ID)?.turn_id ?? null;
    },
  };
}

/** Work handed to sessions, and the candidate sets requests were routed among. */
function delegationsAndCandidates(
  db: Db,
): Pick<
  WorkHubStore,
  'insertDelegation' | 'delegationOfAction' | 'latestDelegationTo' | 'delegations' | 'saveCandidateSet' | 'candidateSet'
> {
  const insertDelegation = db.prepare(`
    INSERT INTO delegations (delegation_id, action_id, target_session_id, target_turn_id, text, created_at)
    VALUES (@delegationId, @actionId, @targetSessionId, @targetTurnId, @text, @createdAt)`);
  type DelegationRow = {
    delegation_id: string;
    action_id: string;
    target_session_id: string;
    target_turn_id: string;
    text: string;
    created_at: number;
  };
  const toDelegation = (row: DelegationRow): StoredDelegation => ({
    delegationId: row.delegation_id,
    actionId: row.action_id,
    targetSessionId: row.target_session_id,
    targetTurnId: row.target_turn_id,
    text: row.text,
    createdAt: row.created_at,
  });
  const ofAction = db.prepare<[string], DelegationRow>('SELECT * FROM delegations WHERE action_id = ?');
  const latestTo = db.prepare<[string], DelegationRow>(
    'SELECT * FROM delegations WHERE target_session_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
  );
  const recent = db.prepare<[number], DelegationRow>(
    'SELECT * FROM delegations ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const saveSet = db.prepare(
    'INSERT OR REPLACE INTO candidate_sets (candidate_set_id, entries, created_at) VALUES (?, ?, ?)',
  );
  const getSet = db.prepare<[string], { entries: string }>(
    'SELECT entries FROM candidate_sets WHERE candidate_set_id = ?',
  );

  return {
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
  };
}

/** The session search index (full-text, titles weighted). */
function sessionSearch(db: Db): Pick<WorkHubStore, 'index' | 'unindex' | 'search'> {
  const unindex = db.prepare('DELETE FROM session_search WHERE session_id = ?');
  const index = db.prepare('INSERT INTO session_search (session_id, title, body) VALUES (?, ?, ?)');
  const search = db.prepare<[string, number], { session_id: string; rank: number; in_title: number }>(`
    SELECT session_id, bm25(session_search, 0, 4.0, 1.0) AS rank,
           CASE WHEN highlight(session_search, 1, '[', ']') LIKE '%[%' THEN 1 ELSE 0 END AS in_title
    FROM session_search WHERE session_search MATCH ? ORDER BY rank LIMIT ?`);

  return {
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
      return search
        .all(query, limit)
        .map((row) => ({ sessionId: row.session_id, rank: row.rank, inTitle: row.in_title === 1 }));
    },
  };
}
