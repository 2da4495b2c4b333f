import { useEffect } from 'react';
import { useAppStore } from '../state/store-context';
import { AgentBreadcrumb } from './agents/AgentBreadcrumb';
import { BranchOriginBar } from './BranchActions';
import { CodexQuarantineNotice } from './CodexQuarantineNotice';
import { LeftoverWorktreesNotice } from './workspace/LeftoverWorktreesNotice';
import { CodexThreadNotice } from './CodexThreadNotice';
import { Composer } from './Composer';
import { GoalBar } from './GoalBar';
import { QueuedMessages } from './QueuedMessages';
import { MissingConnectionNotice, SessionHeader } from './SessionHeader';
import { TranscriptView } from './TranscriptView';
import { WorkspaceBar } from './workspace/WorkspaceBar';

/** The open session: its header, its goal, its transcript, follow-ups waiting, and the composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useAppStore((state) => state.sessions.byId[sessionId]?.title ?? '');

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
      <CodexQuarantineNotice sessionId={sessionId} />
      <CodexThreadNotice sessionId={sessionId} />
      <LeftoverWorktreesNotice />
      <GoalBar sessionId={sessionId} />
      <BranchOriginBar sessionId={sessionId} />
      <TranscriptView key={sessionId} sessionId={sessionId} />
      <div className="session-footer">
        <QueuedMessages sessionId={sessionId} />
        <Composer sessionId={sessionId} />
      </div>
    </section>
  );
}
