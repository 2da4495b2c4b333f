import type { TranscriptItem } from '../../src-shared/model';
import type { Candidate, DelegationRecord, Proposal, RouteResult, WorkTarget } from '../../src-shared/workhub-model';
import { CANDIDATE_STATES, NEEDS_CONFIRMATION, PROPOSAL_KINDS } from '../../src-shared/workhub-model';

/** Reading proposal items of the WorkHub transcript, and the alternatives a card offers. */

/** The routed request a proposal item carries (`{ requestId, proposal, why, candidateSetId, candidates }`), or null when it is not well-formed. */
export function routedRequestOf(item: TranscriptItem): RouteResult | null {
  const data = item.data;
  if (data === null || typeof data.requestId !== 'string' || typeof data.candidateSetId !== 'string') return null;
  const proposal = proposalOf(data.proposal);
  if (proposal === null) return null;
  const candidates = Array.isArray(data.candidates) ? data.candidates.filter(isCandidate) : [];
  return {
    requestId: data.requestId,
    proposal,
    why: typeof data.why === 'string' ? data.why : '',
    candidateSetId: data.candidateSetId,
    candidates,
  };
}

/**
 * A proposal the WorkHub transcript records, or null when it is not one. The host decoded it with
 * proposalSchema before recording it; here only its kind is checked, as for the events' bodies, so
 * zod stays off the renderer's first load.
 */
export function proposalOf(value: unknown): Proposal | null {
  if (value === null || typeof value !== 'object') return null;
  return (PROPOSAL_KINDS as readonly unknown[]).includes((value as { kind?: unknown }).kind)
    ? (value as Proposal)
    : null;
}

function isCandidate(value: unknown): value is Candidate {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.candidateRef === 'string' &&
    typeof candidate.sessionId === 'string' &&
    typeof candidate.title === 'string' &&
    typeof candidate.why === 'string' &&
    (CANDIDATE_STATES as readonly unknown[]).includes(candidate.state)
  );
}

export function needsConfirmation(proposal: Proposal): boolean {
  return NEEDS_CONFIRMATION.includes(proposal.kind);
}

/** Where a proposal points: a candidate, or a delegation this window knows; null for kinds without one target. */
export interface ProposalTarget {
  readonly title: string | null;
  readonly sessionId: string | null;
  readonly candidate: Candidate | null;
}

export function findCandidate(candidates: readonly Candidate[], candidateRef: string): Candidate | null {
  return candidates.find((candidate) => candidate.candidateRef === candidateRef) ?? null;
}

function resolveWorkTarget(
  target: WorkTarget,
  candidates: readonly Candidate[],
  delegations: readonly DelegationRecord[],
): ProposalTarget {
  if ('candidateRef' in target) {
    const candidate = findCandidate(candidates, target.candidateRef);
    return { title: candidate?.title ?? null, sessionId: candidate?.sessionId ?? null, candidate };
  }
  const delegation = delegations.find((known) => known.actionId === target.delegationActionId);
  return { title: delegation?.targetTitle ?? null, sessionId: delegation?.targetSessionId ?? null, candidate: null };
}

export function proposalTarget(
  proposal: Proposal,
  candidates: readonly Candidate[],
  delegations: readonly DelegationRecord[],
): ProposalTarget | null {
  switch (proposal.kind) {
    case 'delegate_existing': {
      const candidate = findCandidate(candidates, proposal.candidateRef);
      return { title: candidate?.title ?? null, sessionId: candidate?.sessionId ?? null, candidate };
    }
    case 'stop_work':
    case 'resume_work':
      return resolveWorkTarget(proposal.target, candidates, delegations);
    case 'correct':
      return 'candidateRef' in proposal.target ? resolveWorkTarget(proposal.target, candidates, delegations) : null;
    default:
      return null;
  }
}

/** The candidate ref a proposal points at, if it points at one (so Pick another can leave it out). */
export function targetRef(proposal: Proposal): string | null {
  switch (proposal.kind) {
    case 'delegate_existing':
      return proposal.candidateRef;
    case 'stop_work':
    case 'resume_work':
      return 'candidateRef' in proposal.target ? proposal.target.candidateRef : null;
    case 'correct':
      return 'candidateRef' in proposal.target ? proposal.target.candidateRef : null;
    default:
      return null;
  }
}

/**
 * The same proposal aimed at another candidate ("Pick another"): a request is handed to it, a stop,
 * resume or correction is aimed at it. Null for kinds that have no target to change.
 */
export function retarget(proposal: Proposal, candidateRef: string): Proposal | null {
  switch (proposal.kind) {
    case 'delegate_existing':
    case 'create_new':
    case 'choose':
      return { kind: 'delegate_existing', candidateRef, text: proposal.text };
    case 'stop_work':
    case 'resume_work':
      return { kind: proposal.kind, target: { candidateRef } };
    case 'correct':
      return { kind: 'correct', replacesActionId: proposal.replacesActionId, target: { candidateRef } };
    default:
      return null;
  }
}

/** The request as new work instead ("Start new instead"); null where that makes no sense. */
export function asNewWork(proposal: Proposal): Proposal | null {
  switch (proposal.kind) {
    case 'delegate_existing':
    case 'choose':
      return { kind: 'create_new', title: titleForNewWork(proposal.text), workspace: null, text: proposal.text };
    default:
      return null;
  }
}

const TITLE_LIMIT = 60;

/** A short title for new work from the request: its first line, without a leading "new:", cut at a word. */
export function titleForNewWork(text: string): string {
  const firstLine = text.trim().split('\n')[0] ?? '';
  const cleaned =
    firstLine
      .replace(/^(new|start|create)\b[:\s-]*/i, '')
      .replace(/\s+/g, ' ')
      .trim() || firstLine.trim();
  if (cleaned === '') return 'New work';
  const capitalised = cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
  if (capitalised.length <= TITLE_LIMIT) return capitalised;
  const cut = capitalised.slice(0, TITLE_LIMIT);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LIMIT / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Which acts a card offers for its proposal. */
export interface CardChoices {
  /** "Do it": answers and questions need nothing done, everything else does. */
  readonly doIt: boolean;
  /** Candidates the proposal could be aimed at instead. */
  readonly others: readonly Candidate[];
  readonly startNew: Proposal | null;
}

export function cardChoices(route: RouteResult): CardChoices {
  const { proposal, candidates } = route;
  const doIt = proposal.kind !== 'answer_here' && proposal.kind !== 'clarify';
  const current = targetRef(proposal);
  const others =
    retarget(proposal, current ?? '') === null
      ? []
      : candidates.filter((candidate) => candidate.candidateRef !== current);
  return { doIt, others, startNew: asNewWork(proposal) };
}
