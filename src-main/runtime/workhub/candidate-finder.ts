import { createHash } from 'node:crypto';
import type { Candidate, CandidateSet, CandidateState } from '../../../src-shared/workhub-model';
import { candidateStateOf, WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { SessionRecord } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { Clock } from '../ports/ports';

export const MAX_CANDIDATES = 32;
const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'to',
  'of',
  'and',
  'or',
  'in',
  'on',
  'for',
  'with',
  'please',
  'my',
  'me',
  'it',
  'this',
  'that',
  'is',
  'be',
  'do',
  'can',
  'you',
]);

/** The words of a request worth searching for. */
export function searchWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])]
    .filter((word) => !STOP_WORDS.has(word))
    .slice(0, 12);
}

/**
 * Finds the sessions a request may belong to: full-text matches on titles and recent text first
 * (best first), then the most recently active, at most 32. The set is saved so an action can check
 * later that its target still exists.
 */
export class CandidateFinder {
  constructor(
    private readonly stores: Stores,
    private readonly clock: Clock,
  ) {}

  find(query: string | undefined): CandidateSet {
    const { stores } = this;
    const words = searchWords(query ?? '');
    const hits = stores.workhub.search(words, MAX_CANDIDATES);
    const seen = new Set<string>();
    const chosen: Array<{ session: SessionRecord; why: string }> = [];
    for (const hit of hits) {
      const session = stores.sessions.get(hit.sessionId);
      if (session === null || session.archived || session.sessionId === WORKHUB_SESSION_ID) continue;
      seen.add(session.sessionId);
      const matched = words.filter((word) => `${session.title}`.toLowerCase().includes(word));
      chosen.push({
        session,
        why: hit.inTitle && matched.length > 0 ? `title matches “${matched.join(' ')}”` : 'recent messages mention it',
      });
    }
    for (const session of stores.sessions.list({ archived: false, limit: MAX_CANDIDATES + 1 })) {
      if (chosen.length >= MAX_CANDIDATES) break;
      if (seen.has(session.sessionId) || session.sessionId === WORKHUB_SESSION_ID) continue;
      chosen.push({ session, why: 'recently active' });
    }
    const candidates: Candidate[] = chosen.slice(0, MAX_CANDIDATES).map(({ session, why }, index) => ({
      candidateRef: `c${index + 1}`,
      sessionId: session.sessionId,
      title: session.title,
      workspace: session.workspacePath,
      state: this.stateOf(session),
      updatedAt: session.updatedAt,
      latestDelegationActionId: stores.workhub.latestDelegationTo(session.sessionId)?.actionId ?? null,
      why,
    }));
    const entries = candidates.map(({ candidateRef, sessionId, state }) => ({ candidateRef, sessionId, state }));
    const candidateSetId = `set-${createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 24)}`;
    stores.transaction(() => stores.workhub.saveCandidateSet(candidateSetId, entries, this.clock.now()));
    return { candidateSetId, candidates };
  }

  stateOf(session: SessionRecord): CandidateState {
    return candidateStateOf(session.activity, this.stores.goals.current(session.sessionId)?.status === 'active');
  }
}
