import { lazy, Suspense } from 'react';
import type { TurnSummary } from '../../src-shared/model';
import { describeEndReason } from '../../src-shared/run-reasons';
import { agentNotInstalled, describeRunError, showsHostMessage } from '../format/run-errors';
import { runProgressText } from '../format/run-progress';
import { useNow } from '../hooks/use-now';
import { usageDetail, usageLabel } from '../format/usage';
import { selectHostRefused, selectHostUnreachable, selectLatestTurnId, selectSessionBusy, selectTurn } from '../state/selectors';
import { findConnection } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { focusModelPicker } from './focus-targets';
import { AlertIcon, CheckIcon, GearIcon, PlayIcon, RetryIcon, Spinner, StopIcon, WaitingIcon } from './icons';
import { retryingImport } from '../platform/retrying-import';

/** Installing an ACP agent is offered only after a turn failed for want of it. */
const AcpAgentInstall = lazy(() => retryingImport(() => import('./AcpAgentInstall')).then((module) => ({ default: module.AcpAgentInstall })));

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
    return session === undefined ? undefined : findConnection(state.catalog, session.connectionId)?.acpAgent?.preset?.kind;
  });
  if (turn === undefined) return null;
  const resume = () => void store.getState().resumeTurn(sessionId, turnId);
  // Resume/Retry are offered on the newest turn only, when nothing else runs and the host can be reached.
  const offerAction = latest && !busy && !archived && !unreachable;
  // Live work seen last before the line dropped: what it does now is not known.
  if (unreachable && (turn.status === 'running' || turn.status === 'waiting')) {
    return (
      <div className="turn-status status-unknown" data-testid="turn-status" data-turn-id={turnId} data-status={turn.status} data-frozen="true">
        <span className="turn-status-text">
          <AlertIcon />
          {refused ? 'Status unknown: this tab is not connected' : 'Status unknown until Cairn reconnects'}
        </span>
      </div>
    );
  }

  if (turn.status === 'failed') {
    return (
      <div className="turn-status status-failed" data-testid="turn-status" data-turn-id={turnId} data-status={turn.status} data-error-code={turn.latestRun.errorCode ?? undefined}>
        <FailedTurn
          turn={turn}
          onRetry={offerAction ? resume : null}
          onSettings={() => store.getState().openSettings()}
          onForceStop={() => void store.getState().forceStopCodex(sessionId, turnId)}
        />
        {presetKind !== undefined && latest && agentNotInstalled(turn.latestRun.errorMessage) ? (
          <Suspense fallback={null}>
            <AcpAgentInstall kind={presetKind} />
          </Suspense>
        ) : null}
      </div>
    );
  }

  return (
    <div className={`turn-status status-${turn.status}`} data-testid="turn-status" data-turn-id={turnId} data-status={turn.status}>
      <StatusText turn={turn} />
      <TurnUsage turn={turn} />
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

function TurnUsage({ turn }: { turn: TurnSummary }) {
  if (turn.usage === null) return null;
  return (
    <span className="turn-usage" data-testid="turn-usage" title={usageDetail(turn.usage)}>
      {usageLabel(turn.usage)}
    </span>
  );
}

/** A failed turn: the error class in plain words, the host's own message beneath, Retry and the most useful next step. */
function FailedTurn({ turn, onRetry, onSettings, onForceStop }: { turn: TurnSummary; onRetry: (() => void) | null; onSettings: () => void; onForceStop: () => void }) {
  const { errorCode, errorMessage } = turn.latestRun;
  const text = describeRunError(errorCode, errorMessage);
  return (
    <div className="turn-failure" role="group" aria-label="The turn failed">
      <AlertIcon />
      <div className="turn-failure-body">
        <p className="turn-failure-title">
          <strong>{text.title}</strong>
        </p>
        <p className="turn-failure-text">{text.sentence}</p>
        {showsHostMessage(errorCode, errorMessage) ? <p className="turn-failure-detail">{errorMessage}</p> : null}
        <div className="turn-failure-actions">
          {onRetry !== null ? (
            <button type="button" className="button button-small" onClick={onRetry}>
              <RetryIcon />
              Retry
            </button>
          ) : null}
          {text.remedy === 'settings' ? (
            <button type="button" className="button button-small button-quiet" onClick={onSettings}>
              <GearIcon />
              Open Settings
            </button>
          ) : null}
          {text.remedy === 'force_stop' ? (
            <button type="button" className="button button-small" onClick={onForceStop}>
              <StopIcon />
              Force stop
            </button>
          ) : null}
          {text.remedy === 'pick_model' ? (
            <button type="button" className="button button-small button-quiet" onClick={focusModelPicker}>
              Pick another model
            </button>
          ) : null}
          <TurnUsage turn={turn} />
        </div>
      </div>
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
  const progress = live !== undefined && live.turnId === turn.turnId && live.runId === turn.latestRun.runId ? live.progress : null;
  const now = useNow(progress !== null, 1000, progress);
  // A question asked inside the running call (an MCP server's elicitation): the call waits for the person.
  const asking = useAppStore((state) => state.interactions.pendingIds.some((id) => state.interactions.byId[id]?.runId === turn.latestRun.runId));
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
      <span className="turn-status-text" data-testid="provider-wait" data-phase={progress.phase} role="timer" aria-live="off">
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
