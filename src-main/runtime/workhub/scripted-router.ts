import type { Candidate, Proposal } from '../../../src-shared/workhub-model';
import { titleFromMessage } from '../sessions/session-title';

export interface RouterInput {
  readonly text: string;
  readonly candidates: readonly Candidate[];
  /** The most recent delegation, for "no, move this to …". */
  readonly latestDelegationActionId: string | null;
}

export interface RoutedProposal {
  readonly proposal: Proposal;
  readonly why: string;
}

/** Routes a request to a proposal; the scripted router with the Offline demo, a model call otherwise. */
export interface Router {
  route(input: RouterInput, signal: AbortSignal): Promise<RoutedProposal>;
}

/**
 * Deterministic rules, so tests and the Offline demo can drive every kind of proposal:
 * "stop …", "resume …"/"continue …", "no, … instead", a question about status, "new …", too little
 * to go on, one clear match, several matches.
 */
export const scriptedRouter: Router = {
  async route({ text, candidates, latestDelegationActionId }) {
    const lower = text.toLowerCase().trim();
    const matched = candidates.filter((candidate) => candidate.why !== 'recently active');
    const best = matched[0];
    if (/^(stop|cancel|halt)\b/.test(lower)) {
      const target =
        matched.find((candidate) => candidate.state === 'running' || candidate.state === 'waiting_for_user') ?? best;
      if (target === undefined) return clarify('Which work should I stop? Nothing running matches that.');
      return {
        proposal: { kind: 'stop_work', target: { candidateRef: target.candidateRef } },
        why: `Stop the work in “${target.title}” (${target.state}).`,
      };
    }
    if (/^(resume|continue|restart)\b/.test(lower)) {
      const target =
        matched.find((candidate) => candidate.state === 'interrupted' || candidate.state === 'failed') ?? best;
      if (target === undefined) return clarify('Which work should I resume?');
      return {
        proposal: { kind: 'resume_work', target: { candidateRef: target.candidateRef } },
        why: `Resume the work in “${target.title}”.`,
      };
    }
    if ((/^no\b/.test(lower) || /\binstead\b/.test(lower)) && latestDelegationActionId !== null) {
      const target = matched.find((candidate) => candidate.latestDelegationActionId !== latestDelegationActionId);
      const proposal: Proposal =
        target === undefined
          ? {
              kind: 'correct',
              replacesActionId: latestDelegationActionId,
              target: { createNew: { title: titleFromMessage(text) ?? 'New work', workspace: null } },
            }
          : {
              kind: 'correct',
              replacesActionId: latestDelegationActionId,
              target: { candidateRef: target.candidateRef },
            };
      return {
        proposal,
        why:
          target === undefined ? 'Move the last request to new work.' : `Move the last request to “${target.title}”.`,
      };
    }
    if (lower.endsWith('?') && /\b(what|which|status|running|doing)\b/.test(lower)) {
      const busy = candidates.filter((candidate) => candidate.state !== 'idle');
      const summary =
        busy.length === 0
          ? 'Nothing is running right now.'
          : busy.map((candidate) => `- **${candidate.title}**: ${candidate.state.replaceAll('_', ' ')}`).join('\n');
      return {
        proposal: { kind: 'answer_here', text: summary },
        why: 'A question about the work itself: answered here.',
      };
    }
    if (lower.split(/\s+/).length < 3)
      return clarify('Could you say a little more about what you want done, and where?');
    const newWork = /^(new|start|create)\b/.test(lower);
    if (newWork || best === undefined) {
      const title = titleFromMessage(text.replace(/^(new|start|create)\b[:\s]*/i, '')) ?? 'New work';
      return {
        proposal: { kind: 'create_new', title, workspace: null, text },
        why: newWork ? 'You asked for new work.' : 'No existing session matches.',
      };
    }
    const inTitle = matched.filter((candidate) => candidate.why.startsWith('title matches'));
    if (inTitle.length === 1 || matched.length === 1) {
      const target = inTitle[0] ?? best;
      return {
        proposal: { kind: 'delegate_existing', candidateRef: target.candidateRef, text },
        why: `“${target.title}” ${target.why}.`,
      };
    }
    const choices = (inTitle.length >= 2 ? inTitle : matched).slice(0, 4);
    return {
      proposal: { kind: 'choose', candidateRefs: choices.map((candidate) => candidate.candidateRef), text },
      why: `${choices.length} sessions could take this; pick one.`,
    };
  },
};

function clarify(question: string): RoutedProposal {
  return { proposal: { kind: 'clarify', question }, why: 'Not enough to go on.' };
}
