import { useState } from 'react';
import type { Candidate, CandidateState } from '../../../src-shared/workhub-model';
import { candidateStateLabel } from '../../format/workhub-text';
import { useAppStore } from '../../state/store-context';
import { liveCandidateState } from '../../state/workhub-card-view';
import { distinctTitles } from '../../format/distinct-titles';
import { ChevronIcon } from './workhub-icons';

/** A candidate's state as a small coloured chip. */
export function StateChip({ state }: { state: CandidateState }) {
  return (
    <span className={`state-chip state-${state}`} data-testid="state-chip" data-state={state}>
      {candidateStateLabel(state)}
    </span>
  );
}

/** The state a session is in now (never the one it was in when Cairn looked); nothing while this window does not know it. */
export function useLiveState(sessionId: string | null): CandidateState | null {
  return useAppStore((state) =>
    sessionId === null ? null : liveCandidateState(state.sessions.byId[sessionId], state.goals[sessionId]),
  );
}

/** A candidate's live state chip. */
export function LiveStateChip({ sessionId }: { sessionId: string }) {
  const state = useLiveState(sessionId);
  return state === null ? null : <StateChip state={state} />;
}

interface CandidateListProps {
  readonly candidates: readonly Candidate[];
  /** The candidate the proposal points at, marked as such. */
  readonly proposedRef: string | null;
  /** Candidates the choose proposal offers, marked as fitting. */
  readonly fittingRefs: readonly string[];
  /** Open with a Choose button on each candidate but the proposed one. */
  readonly picking: boolean;
  readonly disabled: boolean;
  readonly onPick: (candidate: Candidate) => void;
}

/** The sessions Cairn considered for a request, with their state and why each matched; folded until asked for. */
export function CandidateList({ candidates, proposedRef, fittingRefs, picking, disabled, onPick }: CandidateListProps) {
  const [expanded, setExpanded] = useState(false);
  if (candidates.length === 0) return null;
  const open = expanded || picking;
  const labels = distinctTitles(
    candidates.map((candidate) => ({
      sessionId: candidate.sessionId,
      title: candidate.title,
      workspacePath: candidate.workspace,
      updatedAt: candidate.updatedAt,
    })),
    Date.now(),
  );
  return (
    <div className={`candidate-list${open ? ' is-open' : ''}`}>
      {picking ? (
        <p className="candidate-list-prompt">Pick where this should go instead:</p>
      ) : (
        <button type="button" className="candidate-toggle" aria-expanded={open} onClick={() => setExpanded(!open)}>
          <ChevronIcon />
          Considered {candidates.length} {candidates.length === 1 ? 'session' : 'sessions'}
        </button>
      )}
      {open ? (
        <ul className="candidate-items" role="list">
          {candidates.map((candidate) => {
            const proposed = candidate.candidateRef === proposedRef;
            return (
              <li
                key={candidate.candidateRef}
                className={`candidate${proposed ? ' is-proposed' : ''}`}
                data-testid="candidate"
                data-candidate-ref={candidate.candidateRef}
                data-session-id={candidate.sessionId}
              >
                <div className="candidate-main">
                  <span className="candidate-title">{labels.get(candidate.sessionId) ?? candidate.title}</span>
                  <LiveStateChip sessionId={candidate.sessionId} />
                  {proposed ? <span className="candidate-tag">Proposed</span> : null}
                  {!proposed && fittingRefs.includes(candidate.candidateRef) ? (
                    <span className="candidate-tag">Fits</span>
                  ) : null}
                </div>
                <span className="candidate-why">{candidate.why}</span>
                {picking && !proposed ? (
                  <button
                    type="button"
                    className="button button-small candidate-pick"
                    disabled={disabled}
                    aria-label={`Choose “${labels.get(candidate.sessionId) ?? candidate.title}”`}
                    onClick={() => onPick(candidate)}
                  >
                    Choose
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
