import { lazy, Suspense } from 'react';
import type { TurnSummary } from '../../src-shared/model';
import { describeEndReason } from '../../src-shared/run-reasons';
import { runProgressText } from '../format/run-progress';
import { useNow } from '../hooks/use-now';
import { TurnUsage } from './TurnUsage';
import {
  selectHostRefused,
  selectHostUnreachable,
  selectLatestTurnId,
  selectSessionBusy,
  selectTurn,
} from '../state/selectors';
import { findConnection } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AlertIcon, CheckIcon, PlayIcon, RetryIcon, Spinner, StopIcon, WaitingIcon } from './icons';
import { retryingImport } from '../platform/retrying-import';

/** Why a turn failed and what to do about it: its texts load with the first failed turn shown. */
const FailedTurn = lazy(() =>
  retryingImport(() => import('./FailedTurn')).then((module) => ({ default: module.FailedTurn })),
);

/** A turn's status under its last message: progress while it runs, why it ended, its cost, and what can be done next. */
export function TurnStatus({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const store = useStoreApi();
  const turn = useAppStore(selectTurn(sessionId, turnId));
  const latest = useAppStore((state) => selectLatestTurnId(sessionId)(state) === turnId);
  const busy = useAppStore(selectSessionBusy(sessionId));
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const unreachable = useAppStore(selectHostUnreachable);
  const refused = useAppStore(selectHostRefused);
  const presetKind = useAppStore((state) => {
    const session = state.sessions.byId[sessionId];
    return session === undefined
      ? undefined
      : findConnection(state.catalog, session.connectionId)?.acpAgent?.preset?.kind;
  });
  if (turn === undefined) return null;
  const resume = () => void store.getState().resumeTurn(sessionId, turnId);
  // Resume/Retry are offered on the newest turn only, when nothing else runs and the host can be reached.
  const offerAction = latest && !busy && !archived && !unreachable;
  // Live work seen last before the line dropped: what it does now is not known.
  if (unreachable && (turn.status === 'running' || turn.status === 'waiting')) {
    return (
      <div
        className="turn-status status-unknown"
        data-testid="turn-status"
        data-turn-id={turnId}
        data-status={turn.status}
        data-frozen="true"
      >
        <span className="turn-status-text">
          <AlertIcon />
          {refused ? 'Status unknown: this tab is not connected' : 'Status unknown until Cairn reconnects'}
        </span>
      </div>
    );
  }

  if (turn.status === 'failed') {
    return (
      <div
        className="turn-status status-failed"
        data-testid="turn-status"
        data-turn-id={turnId}
        data-status={turn.status}
        data-error-code={turn.latestRun.errorCode ?? undefined}
      >
        <Suspense
          fallback={
            <span className="turn-status-text">
              <AlertIcon />
              Failed
            </span>
          }
        >
          <FailedTurn
            turn={turn}
            installKind={latest ? presetKind : undefined}
            latest={latest}
            onRetry={offerAction ? resume : null}
            onSettings={() => store.getState().openSettings()}
            onForceStop={() => void store.getState().forceStopCodex(sessionId, turnId)}
          />
        </Suspense>
      </div>
    );
  }

  return (
    <div
      className={`turn-status status-${turn.status}`}
      data-testid="turn-status"
      data-turn-id={turnId}
      data-status={turn.status}
    >
      <StatusText turn={turn} />
      <TurnUsage turn={turn} />
      {/* One word for one act: the turn carries on where it stopped, whether it was stopped or interrupted. */}
      {offerAction && (turn.status === 'interrupted' || turn.status === 'cancelled') ? (
        <button
          type="button"
          className={`button button-small${turn.status === 'cancelled' ? ' button-quiet' : ''}`}
          onClick={resume}
        >
          <PlayIcon />
          Resume
        </button>
      ) : null}
    </div>
  );
}

function StatusText({ turn }: { turn: TurnSummary }) {
  const run = turn.latestRun;
  switch (turn.status) {
    case 'running':
      return <RunningText turn={turn} />;
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
          {run.stoppedFrom === undefined ? null : ` from ${run.stoppedFrom}`}
        </span>
      );
    case 'failed':
      return null;
    case 'interrupted':
      return (
        <span className="turn-status-text">
          <AlertIcon />
          {run.terminalReason === null ? 'Interrupted' : `Interrupted — ${describeEndReason(run.terminalReason)}`}
        </span>
      );
  }
}

/**
 * A running turn: what it waits on when its provider is slow or being retried (a live timer), else
 * what it is doing.
 */
function RunningText({ turn }: { turn: TurnSummary }) {
  const live = useAppStore((state) => state.runProgress[turn.sessionId]);
  const progress =
    live !== undefined && live.turnId === turn.turnId && live.runId === turn.latestRun.runId ? live.progress : null;
  const now = useNow(progress !== null, 1000, progress);
  // A question asked inside the running call (an MCP server's elicitation): the call waits for the person.
  const asking = useAppStore((state) =>
    state.interactions.pendingIds.some((id) => state.interactions.byId[id]?.runId === turn.latestRun.runId),
  );
  const kind = turn.latestRun.kind;
  if (asking) {
    return (
      <span className="turn-status-text" data-testid="run-asking">
        <WaitingIcon />
        Waiting for your answer — the tool call goes on when you answer
      </span>
    );
  }
  if (progress !== null) {
    return (
      <span
        className="turn-status-text"
        data-testid="provider-wait"
        data-phase={progress.phase}
        role="timer"
        aria-live="off"
      >
        {progress.phase === 'retrying' ? <RetryIcon /> : <Spinner />}
        {runProgressText(progress, now)}
      </span>
    );
  }
  return (
    <span className="turn-status-text">
      <Spinner />
      {kind === 'resume' ? 'Resuming…' : kind === 'continuation' ? 'Continuing with your answer…' : 'Working…'}
    </span>
  );
}

/** "Stopped", and why when someone or something other than the person's own Stop ended it. */
function stoppedText(reason: string | null): string {
  if (reason === null || reason === 'stop_button' || reason === 'keyboard') return 'Stopped';
  if (reason === 'workhub_stop') return 'Stopped from the WorkHub';
  return `Stopped — ${describeEndReason(reason)}`;
}
