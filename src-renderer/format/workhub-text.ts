import type { OperationError } from '../../src-shared/errors';
import type {
  ActResult,
  CandidateState,
  DelegationRecord,
  Proposal,
  RouteResult,
  StopOutcome,
} from '../../src-shared/workhub-model';
import type { ProposalTarget } from '../state/workhub-proposals';

/** The WorkHub's words: what a proposal will do and why, what an act did, what a state means. */

const quoted = (title: string | null, fallback: string) => (title === null || title === '' ? fallback : `“${title}”`);

export interface ProposalWords {
  /** What Cairn will do, in one line. */
  readonly headline: string;
  /** Why, in a few words (the target's match, or the router's reason). */
  readonly reason: string;
}

export function describeProposal(route: RouteResult, target: ProposalTarget | null): ProposalWords {
  const { proposal } = route;
  const name = quoted(target?.title ?? null, 'that session');
  const reason = target?.candidate?.why ?? route.why;
  switch (proposal.kind) {
    case 'answer_here':
      return { headline: 'Answered here — nothing handed out', reason: '' };
    case 'clarify':
      return { headline: 'Asked you back', reason: route.why };
    case 'create_new':
      return { headline: `Start new work: “${proposal.title}”`, reason: route.why };
    case 'delegate_existing':
      return { headline: `Hand this to ${name}`, reason };
    case 'choose': {
      const titles = proposal.candidateRefs.map(
        (ref) => route.candidates.find((candidate) => candidate.candidateRef === ref)?.title ?? null,
      );
      const named = titles.filter((title): title is string => title !== null).map((title) => `“${title}”`);
      const list =
        named.length === titles.length && named.length > 1
          ? `${named.slice(0, -1).join(', ')} or ${named.at(-1) ?? ''}`
          : null;
      return {
        headline:
          list === null ? `Ask you which of ${titles.length} sessions takes this` : `Ask you where this goes: ${list}`,
        reason: '',
      };
    }
    case 'stop_work':
      return { headline: `Stop the work in ${quoted(target?.title ?? null, 'the delegated session')}`, reason };
    case 'resume_work':
      return { headline: `Resume the work in ${quoted(target?.title ?? null, 'the delegated session')}`, reason };
    case 'correct':
      return {
        headline:
          'createNew' in proposal.target
            ? `Move your last request to new work: “${proposal.target.createNew.title}”`
            : `Move your last request to ${name}`,
        reason: target?.candidate?.why ?? route.why,
      };
  }
}

/** The text a proposal's act shows first: an answer, or a question back. */
export function proposalBody(proposal: Proposal): string | null {
  if (proposal.kind === 'answer_here') return proposal.text;
  if (proposal.kind === 'clarify') return proposal.question;
  return null;
}

const STATE_LABELS: Record<CandidateState, string> = {
  idle: 'Idle',
  running: 'Running',
  waiting_for_user: 'Waiting for you',
  interrupted: 'Interrupted',
  failed: 'Failed',
  goal_active: 'Working on a goal',
};

export function candidateStateLabel(state: CandidateState): string {
  return STATE_LABELS[state];
}

/** A note under the headline when the target's state changes what happens. */
export function targetStateNote(proposal: Proposal, state: CandidateState | null): string | null {
  if (state === null || proposal.kind !== 'delegate_existing') return null;
  switch (state) {
    case 'running':
    case 'goal_active':
      return 'It is busy now, so this waits behind its current turn.';
    case 'waiting_for_user':
      return 'It is waiting for your answer, so this waits until that is settled.';
    default:
      return null;
  }
}

const DELEGATION_LABELS: Record<DelegationRecord['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting for you',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
  removed: 'Session deleted',
};

export function delegationStatusLabel(status: DelegationRecord['status']): string {
  return DELEGATION_LABELS[status];
}

function stopPhrase(outcome: StopOutcome, name: string): string {
  switch (outcome) {
    case 'stop_delivered':
      return `Stop delivered to ${name}`;
    case 'already_terminal':
      return `Nothing to stop: the work in ${name} had already ended`;
    case 'not_owned':
      return 'Left alone: the running work there isn’t from this delegation';
  }
}

const HANDED_STATES: Record<DelegationRecord['status'], string> = {
  queued: 'queued behind its current turn',
  running: 'running there now',
  waiting: 'waiting for you there',
  completed: 'done',
  failed: 'it failed there',
  cancelled: 'stopped',
  interrupted: 'interrupted',
  removed: 'that session has since been deleted',
};

/** A request handed over earlier (read back from the delegations), with how it is doing now. */
export function describeHandedOver(delegation: DelegationRecord): string {
  return `Handed to ${quoted(delegation.targetTitle, 'a session')} — ${HANDED_STATES[delegation.status]}`;
}

/**
 * What an act did, in one line, for the card; with `live` (the hand-off as it is now), how that work
 * is doing now rather than how it was when the act answered.
 */
export function describeResult(
  result: ActResult,
  fallbackTitle: string | null,
  live: DelegationRecord | null = null,
): string {
  const titleOf = (delegation: DelegationRecord | null) =>
    quoted(live?.targetTitle ?? delegation?.targetTitle ?? fallbackTitle, 'the session');
  const now = live === null ? null : HANDED_STATES[live.status];
  switch (result.kind) {
    case 'answered':
      return 'Answered';
    case 'clarified':
      return 'Asked you for more';
    case 'delegated': {
      const name = titleOf(result.delegation);
      if (result.createdSession)
        return now === null ? `Started new work in ${name}` : `Started new work in ${name} — ${now}`;
      if (now !== null) return `Handed to ${name} — ${now}`;
      return result.queued
        ? `Handed to ${name} — queued behind its current turn`
        : `Handed to ${name} — running there now`;
    }
    case 'awaiting_choice':
      return 'Pick where it goes in the form below';
    case 'stopped':
      return stopPhrase(result.outcome, titleOf(result.delegation));
    case 'resumed':
      return now === null
        ? `Resumed in ${titleOf(result.delegation)}`
        : `Resumed in ${titleOf(result.delegation)} — ${now}`;
    case 'corrected': {
      const moved = `Moved to ${titleOf(result.delegation)}`;
      switch (result.stop) {
        case 'stop_delivered':
          return `${moved} — the earlier work was stopped`;
        case 'already_terminal':
          return `${moved} — the earlier work had already ended`;
        case 'not_owned':
          return `${moved} — the earlier session was left alone, its running work isn’t from that request`;
      }
    }
  }
}

/** Why an act did not happen, and what the card offers next. */
export function describeActError(
  error: OperationError,
  targetTitle: string | null,
): { readonly message: string; readonly reroute: boolean } {
  if (error.code === 'candidate_set_stale') {
    return {
      message: `${quoted(targetTitle, 'The session it chose')} was archived or removed since Cairn looked. Route the request again to see where it fits now.`,
      reroute: true,
    };
  }
  return { message: error.message, reroute: false };
}

/** What a confirmation dialog asks before a stop or a correction. */
export function confirmationWords(
  proposal: Proposal,
  targetTitle: string | null,
): { title: string; body: string; confirm: string; keep: string } {
  const name = quoted(targetTitle, 'the delegated session');
  if (proposal.kind === 'correct') {
    const destination = 'createNew' in proposal.target ? `new work, “${proposal.target.createNew.title}”` : name;
    return {
      title: `Move your last request to ${destination}?`,
      body: 'If the work it started is still running, Cairn stops it first, then hands the request over. What was already done stays in its transcript.',
      confirm: 'Move it',
      keep: 'Leave it',
    };
  }
  return {
    title: `Stop the work in ${name}?`,
    body: 'The turn the WorkHub started there is cancelled now. What it already did stays in its transcript, and you can resume it later.',
    confirm: 'Stop',
    keep: 'Keep running',
  };
}
