import { useEffect } from 'react';
import { useAppStore } from '../state/store-context';
import { Composer } from './Composer';
import { QueuedMessages } from './QueuedMessages';
import { TranscriptView } from './TranscriptView';

/** The open session: its title, its transcript, follow-ups waiting, and the composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const title = useAppStore((state) => state.sessions.byId[sessionId]?.title ?? '');
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);

  useEffect(() => {
    document.title = title === '' ? 'Cairn' : `${title} — Cairn`;
    return () => {
      document.title = 'Cairn';
    };
  }, [title]);

  return (
    <section className="session-view" aria-labelledby="session-title">
      <header className="session-header">
        <h1 id="session-title" data-testid="session-title" title={title}>
          {title}
        </h1>
        {archived ? <span className="tag">Archived</span> : null}
      </header>
      <TranscriptView key={sessionId} sessionId={sessionId} />
      <div className="session-footer">
        <QueuedMessages sessionId={sessionId} />
        <Composer sessionId={sessionId} />
      </div>
    </section>
  );
}
