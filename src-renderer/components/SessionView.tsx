import { lazy, Suspense, useEffect } from 'react';
import { useAppStore } from '../state/store-context';
import { AgentBreadcrumb } from './subagents/AgentBreadcrumb';
import { BranchOriginBar } from './BranchActions';
import { Composer } from './Composer';
import { MissingConnectionNotice, SessionHeader } from './SessionHeader';
import { SessionNotices } from './SessionNotices';
import { TranscriptView } from './TranscriptView';
import { WorkspaceBar } from './workspace/WorkspaceBar';
import { retryingImport } from '../platform/retrying-import';

/** The goal bar loads with the first session that has a goal. */
const GoalBar = lazy(() => retryingImport(() => import('./GoalBar')).then((module) => ({ default: module.GoalBar })));
/** The follow-ups waiting behind the running turn load with the first one queued. */
const QueuedMessages = lazy(() =>
  retryingImport(() => import('./QueuedMessages')).then((module) => ({ default: module.QueuedMessages })),
);

/** The open session: its header, its goal, its transcript, follow-ups waiting, and the composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useAppStore((state) => state.sessions.byId[sessionId]?.title ?? '');
  const hasGoal = useAppStore((state) => state.goals[sessionId] != null);
  const hasQueued = useAppStore((state) => (state.queues[sessionId]?.length ?? 0) > 0);

  useEffect(() => {
    document.title = title === '' ? 'Cairn' : `${title} — Cairn`;
    return () => {
      document.title = 'Cairn';
    };
  }, [title]);

  return (
    <section className="session-view" aria-labelledby="session-title">
      <SessionHeader sessionId={sessionId} />
      <AgentBreadcrumb sessionId={sessionId} />
      <WorkspaceBar sessionId={sessionId} />
      <MissingConnectionNotice sessionId={sessionId} />
      <SessionNotices sessionId={sessionId} />
      {hasGoal ? (
        <Suspense fallback={null}>
          <GoalBar sessionId={sessionId} />
        </Suspense>
      ) : null}
      <BranchOriginBar sessionId={sessionId} />
      <TranscriptView key={sessionId} sessionId={sessionId} />
      <div className="session-footer">
        {hasQueued ? (
          <Suspense fallback={null}>
            <QueuedMessages sessionId={sessionId} />
          </Suspense>
        ) : null}
        <Composer sessionId={sessionId} />
      </div>
    </section>
  );
}
