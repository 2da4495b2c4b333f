import type { InteractionRecord } from '../../src-shared/interaction-model';
import { waitingSessionLabel } from '../state/agent-selectors';
import { useAppStore, useStoreApi } from '../state/store-context';
import { BellIcon } from './icons';

/** What a pending interaction asks, in a few words. */
export function interactionGist(record: InteractionRecord): string {
  switch (record.request.kind) {
    case 'permission':
      return `Allow: ${record.request.summary}`;
    case 'network':
      return `Allow network to ${record.request.host}`;
    case 'form':
      return record.request.title;
    case 'question': {
      const [first, ...rest] = record.request.questions;
      if (first === undefined) return 'A question';
      return rest.length === 0 ? first.prompt : `${first.header} and ${rest.length} more`;
    }
  }
}

/** "Waiting for you": every pending question, form and approval across sessions, each a jump to its session. */
export function WaitingList() {
  const store = useStoreApi();
  const pendingIds = useAppStore((state) => state.interactions.pendingIds);
  const byId = useAppStore((state) => state.interactions.byId);
  const sessions = useAppStore((state) => state.sessions.byId);
  const agentLinks = useAppStore((state) => state.agents.links);
  const selected = useAppStore((state) => state.selectedSessionId);
  if (pendingIds.length === 0) return null;

  return (
    <section className="waiting" aria-labelledby="waiting-title" data-testid="waiting-list">
      <h2 id="waiting-title" className="waiting-title">
        <BellIcon />
        Waiting for you
        <span className="count-badge" data-testid="waiting-count" aria-label={`${pendingIds.length} waiting`}>
          {pendingIds.length}
        </span>
      </h2>
      <ul className="waiting-items">
        {pendingIds.map((interactionId) => {
          const record = byId[interactionId];
          if (record === undefined) return null;
          const title = waitingSessionLabel(record.sessionId, sessions, agentLinks);
          return (
            <li key={interactionId}>
              <button
                type="button"
                className={`waiting-item${selected === record.sessionId ? ' is-current' : ''}`}
                data-testid="waiting-item"
                data-session-id={record.sessionId}
                onClick={() => store.getState().jumpToInteraction(record)}
              >
                <span className="waiting-item-session">{title}</span>
                <span className="waiting-item-gist">{interactionGist(record)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
