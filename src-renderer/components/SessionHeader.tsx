import { lazy, Suspense, useEffect } from 'react';
import { retryingImport } from '../platform/retrying-import';
import { usageDetail, usageLabel } from '../format/usage';
import { findConnection } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { focusModelPicker } from './focus-targets';
import { ContextMeterBadge } from './ContextMeterBadge';
import { AlertIcon, TargetIcon } from './icons';
import { ModelPicker } from './ModelPicker';
import { SessionChatTools } from './SessionChatTools';

/** An ACP agent's own settings (mode, model, …): loaded only for a session whose agent offers some. */
const AgentChoices = lazy(() =>
  retryingImport(() => import('./AgentChoices')).then((module) => ({ default: module.AgentChoices })),
);

/**
 * The open session's header: title (cut short with its whole text on hover), what it has cost so far,
 * its connection and model (an ACP agent's own settings beside them), and Set goal. A narrow header moves the cost, the Instructions chip and Set
 * goal into the Conversation menu, so it fits from 760 px windows up.
 */
export function SessionHeader({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const title = useAppStore((state) => state.sessions.byId[sessionId]?.title ?? '');
  const folder = useAppStore((state) => state.sessions.byId[sessionId]?.workspacePath ?? null);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const totals = useAppStore((state) => state.sessionUsage[sessionId]);
  const offersChoices = useAppStore((state) => (state.acpOffers[sessionId]?.selectors.length ?? 0) > 0);
  const branch = useAppStore((state) => state.worktreeBySession[sessionId]?.status?.worktree.branch ?? null);
  const hasGoal = useAppStore((state) => {
    const goal = state.goals[sessionId];
    return goal !== undefined && goal !== null && goal.status !== 'complete';
  });

  // The branch chip follows the session's folder: a worktree made, merged or discarded moves it.
  useEffect(() => {
    if (folder !== null) void store.getState().loadWorktree(sessionId);
  }, [sessionId, folder, store]);

  return (
    <header className="session-header">
      <h1 id="session-title" data-testid="session-title" title={title}>
        {title}
      </h1>
      {archived ? <span className="tag">Archived</span> : null}
      {branch === null ? null : (
        <code
          className="branch-chip"
          data-testid="branch-chip"
          title="This session works in a worktree of its own, on this branch"
        >
          {branch}
        </code>
      )}
      <div className="session-header-tools">
        {totals !== undefined && totals.calls > 0 ? (
          <span
            className="session-usage"
            data-testid="session-usage"
            title={`This session so far: ${usageDetail(totals)}`}
          >
            {usageLabel(totals)}
          </span>
        ) : null}
        <ContextMeterBadge sessionId={sessionId} />
        <ModelPicker sessionId={sessionId} />
        {offersChoices ? (
          <Suspense fallback={null}>
            <AgentChoices sessionId={sessionId} />
          </Suspense>
        ) : null}
        <SessionChatTools sessionId={sessionId} />
        {hasGoal || archived ? null : (
          <button
            type="button"
            className="button button-small button-quiet session-header-goal"
            onClick={() => store.getState().setGoalDialog({ sessionId, mode: 'arm' })}
          >
            <TargetIcon />
            Set goal
          </button>
        )}
      </div>
    </header>
  );
}

/** Under the header when the session's connection is gone: say so, and offer to pick another (nothing re-binds by itself). */
export function MissingConnectionNotice({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const missing = useAppStore((state) => {
    const session = state.sessions.byId[sessionId];
    return (
      state.catalog.loaded && session !== undefined && findConnection(state.catalog, session.connectionId) === undefined
    );
  });
  if (!missing) return null;
  return (
    <div className="session-notice" role="alert" data-testid="connection-missing">
      <AlertIcon />
      <p>
        <strong>This session’s connection was removed.</strong> Pick another connection and model for the next turn.
      </p>
      <button type="button" className="button button-small" onClick={focusModelPicker}>
        Pick another
      </button>
      <button
        type="button"
        className="button button-small button-quiet"
        onClick={() => store.getState().openSettings({ tab: 'connections', connectionId: 'new' })}
      >
        Add a connection
      </button>
    </div>
  );
}
