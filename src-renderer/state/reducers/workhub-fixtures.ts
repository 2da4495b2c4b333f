import type { Candidate, DelegationRecord, Proposal, RouteResult } from '../../../src-shared/workhub-model';

/** Builders for WorkHub tests: plain records with sensible defaults. */

export function candidate(overrides: Partial<Candidate> & { candidateRef: string }): Candidate {
  return {
    sessionId: `s-${overrides.candidateRef}`,
    title: 'Quarterly report',
    workspace: null,
    state: 'idle',
    updatedAt: 1000,
    latestDelegationActionId: null,
    why: 'title matches “report”',
    ...overrides,
  };
}

export function delegation(overrides: Partial<DelegationRecord> & { actionId: string }): DelegationRecord {
  return {
    delegationId: `d-${overrides.actionId}`,
    targetSessionId: 's-c1',
    targetTurnId: `turn-${overrides.actionId}`,
    text: 'Add the revenue chart',
    status: 'running',
    targetTitle: 'Quarterly report',
    createdAt: 1000,
    ...overrides,
  };
}

export function routed(proposal: Proposal, overrides: Partial<RouteResult> = {}): RouteResult {
  return {
    requestId: 'req-1',
    proposal,
    why: '“Quarterly report” title matches “report”.',
    candidateSetId: 'set-1',
    candidates: [
      candidate({ candidateRef: 'c1' }),
      candidate({ candidateRef: 'c2', title: 'Garden plans', why: 'recently active' }),
    ],
    ...overrides,
  };
}
