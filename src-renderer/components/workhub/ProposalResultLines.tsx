import type { OperationError } from '../../../src-shared/errors';
import type { ActResult } from '../../../src-shared/workhub-model';
import { describeActError, describeResult } from '../../format/workhub-text';
import { delegationOf } from '../../state/reducers/workhub-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import type { ProposalTarget } from '../../state/workhub-proposals';
import { AlertIcon, CheckIcon } from '../icons';

/** What became of an act on a proposal: the line under the card saying so, with where to go next. */

function resultSessionId(result: ActResult, target: ProposalTarget | null): string | null {
  switch (result.kind) {
    case 'delegated':
    case 'resumed':
    case 'corrected':
      return result.delegation.targetSessionId;
    case 'stopped':
      return result.delegation?.targetSessionId ?? target?.sessionId ?? null;
    default:
      return null;
  }
}

export function ResultLine({ result, target }: { result: ActResult; target: ProposalTarget | null }) {
  const store = useStoreApi();
  const choice = useAppStore((state) =>
    result.kind === 'awaiting_choice' ? (state.interactions.byId[result.interactionId]?.status ?? 'pending') : null,
  );
  // The hand-off as it is now (the result holds its state when it was made).
  const recordedDelegation = delegationOf(result);
  const live = useAppStore((state) =>
    recordedDelegation === null
      ? null
      : (state.workhub.delegations.find((known) => known.actionId === recordedDelegation.actionId) ?? null),
  );
  const sessionId = resultSessionId(result, target);
  const text =
    choice === null || choice === 'pending'
      ? describeResult(result, target?.title ?? null, live)
      : choice === 'answered'
        ? 'You picked where it goes — see Tasks for how it is doing'
        : 'You closed the choice — nothing was handed over';
  return (
    <div className={`proposal-result result-${result.kind}`} role="status">
      <CheckIcon />
      <span
        data-testid="proposal-result"
        data-result={result.kind}
        data-outcome={result.kind === 'stopped' ? result.outcome : undefined}
      >
        {text}
      </span>
      {sessionId !== null ? (
        <button
          type="button"
          className="button button-small"
          data-testid="open-target"
          onClick={() => store.getState().selectSession(sessionId)}
        >
          Open session
        </button>
      ) : null}
    </div>
  );
}

export function HandedLine({ sessionId, text }: { sessionId: string; text: string }) {
  const store = useStoreApi();
  return (
    <div className="proposal-result result-delegated" role="status">
      <CheckIcon />
      <span data-testid="proposal-result" data-result="delegated">
        {text}
      </span>
      <button
        type="button"
        className="button button-small"
        data-testid="open-target"
        onClick={() => store.getState().selectSession(sessionId)}
      >
        Open session
      </button>
    </div>
  );
}

export function FailureLine({
  error,
  recorded,
  target,
  requestText,
  requestId,
}: {
  error: OperationError;
  recorded: boolean;
  target: ProposalTarget | null;
  requestText: string | null;
  requestId: string;
}) {
  const store = useStoreApi();
  const { message, reroute } = describeActError(error, target?.title ?? null);
  return (
    <div className="proposal-failure" role="alert" data-testid="proposal-error" data-code={error.code}>
      <AlertIcon />
      <span>{message}</span>
      {(reroute || recorded) && requestText !== null ? (
        <button
          type="button"
          className="button button-small"
          onClick={() => void store.getState().routeAgain(requestText)}
        >
          Route again
        </button>
      ) : null}
      {!reroute && !recorded && error.code !== 'invalid_input' ? (
        <button type="button" className="button button-small" onClick={() => void store.getState().retryAct(requestId)}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
