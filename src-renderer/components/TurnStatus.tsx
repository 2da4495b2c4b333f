import type { TurnSummary } from '../../src-shared/model';
import { selectLatestTurnId, selectSessionBusy, selectTurn } from '../state/selectors';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, CheckIcon, PlayIcon, RetryIcon, Spinner, StopIcon, WaitingIcon } from './icons';

/** A turn's status under its last message: progress while it runs, why it ended, and what can be done next. */
export function TurnStatus({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const store = useStoreApi();
  const turn = useAppStore(selectTurn(sessionId, turnId));
  const latest = useAppStore((state) => selectLatestTurnId(sessionId)(state) === turnId);
  const busy = useAppStore(selectSessionBusy(sessionId));
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  if (turn === undefined) return null;
  const resume = () => void store.getState().resumeTurn(sessionId, turnId);
  // Resume/Retry are offered on the newest turn only, when nothing else runs.
  const offerAction = latest && !busy && !archived;

  return (
    <div className={`turn-status status-${turn.status}`} data-testid="turn-status" data-turn-id={turnId} data-status={turn.status}>
      <StatusText turn={turn} />
      {offerAction && turn.status === 'failed' ? (
        <button type="button" className="button button-small" onClick={resume}>
          <RetryIcon />
          Retry
        </button>
      ) : null}
      {offerAction && turn.status === 'interrupted' ? (
        <button type="button" className="button button-small" onClick={resume}>
          <PlayIcon />
          Resume
        </button>
      ) : null}
      {offerAction && turn.status === 'cancelled' ? (
        <button type="button" className="button button-small button-quiet" onClick={resume}>
          <PlayIcon />
          Continue
        </button>
      ) : null}
    </div>
  );
}

function StatusText({ turn }: { turn: TurnSummary }) {
  const run = turn.latestRun;
  switch (turn.status) {
    case 'running':
      return (
        <span className="turn-status-text">
          <Spinner />
          {run.kind === 'resume' ? 'Resuming…' : 'Working…'}
        </span>
      );
    case 'waiting':
      return (
        <span className="turn-status-text">
          <WaitingIcon />
          Waiting for your answer
        </span>
      );
    case 'completed':
      return (
        <span className="turn-status-text">
          <CheckIcon />
          {run.terminalReason === 'max_steps' ? `Stopped at the step limit (${turn.maxSteps} steps)` : 'Completed'}
        </span>
      );
    case 'cancelled':
      return (
        <span className="turn-status-text">
          <StopIcon />
          {stoppedText(run.terminalReason)}
        </span>
      );
    case 'failed':
      return (
        <span className="turn-status-text">
          <AlertIcon />
          <span>
            <strong>Failed</strong>
            {run.errorMessage !== null ? ` — ${run.errorMessage}` : ''}
          </span>
        </span>
      );
    case 'interrupted':
      return (
        <span className="turn-status-text">
          <AlertIcon />
          {run.terminalReason === 'app_restarted' ? 'Interrupted — the app restarted' : 'Interrupted'}
        </span>
      );
  }
}

function stoppedText(reason: string | null): string {
  switch (reason) {
    case 'session_archived':
      return 'Stopped — the session was archived';
    case 'session_removed':
      return 'Stopped — the session was deleted';
    default:
      return 'Stopped';
  }
}
