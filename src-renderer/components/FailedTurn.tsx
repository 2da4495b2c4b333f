import { lazy, Suspense } from 'react';
import type { AcpPresetKind } from '../../src-shared/connection-model';
import type { TurnSummary } from '../../src-shared/model';
import { agentNotInstalled, describeRunError, showsHostMessage } from '../format/run-errors';
import { retryingImport } from '../platform/retrying-import';
import { focusModelPicker } from './focus-targets';
import { AlertIcon, GearIcon, RetryIcon, StopIcon } from './icons';
import { TurnUsage } from './TurnUsage';
import { useAppStore } from '../state/store-context';

/** Installing an ACP agent is offered only after a turn failed for want of it. */
const AcpAgentInstall = lazy(() =>
  retryingImport(() => import('./AcpAgentInstall')).then((module) => ({ default: module.AcpAgentInstall })),
);

/** Signing in is offered only after a turn failed because the agent wants it (`agent_auth_required`). */
const AcpSignIn = lazy(() =>
  retryingImport(() => import('./AcpSignIn')).then((module) => ({ default: module.AcpSignIn })),
);

/** A failed turn: the error class in plain words, the host's own message beneath, Retry and the most useful next step. */
export function FailedTurn({
  turn,
  installKind,
  latest,
  onRetry,
  onSettings,
  onForceStop,
}: {
  turn: TurnSummary;
  /** The session's preset ACP agent when this is its newest turn: Install is offered if the turn failed for want of it. */
  installKind: AcpPresetKind | undefined;
  /** Whether this is the session's newest turn: Sign in is offered there when the agent asked for it. */
  latest: boolean;
  onRetry: (() => void) | null;
  onSettings: () => void;
  onForceStop: () => void;
}) {
  const { errorCode, errorMessage } = turn.latestRun;
  const text = describeRunError(errorCode, errorMessage);
  const connectionId = useAppStore((state) => state.sessions.byId[turn.sessionId]?.connectionId);
  return (
    <>
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
      {errorCode === 'agent_auth_required' && latest && connectionId !== undefined ? (
        <Suspense fallback={null}>
          <AcpSignIn connectionId={connectionId} onSignedIn={onRetry ?? undefined} />
        </Suspense>
      ) : null}
      {installKind !== undefined && agentNotInstalled(errorMessage) ? (
        <Suspense fallback={null}>
          <AcpAgentInstall kind={installKind} />
        </Suspense>
      ) : null}
    </>
  );
}
