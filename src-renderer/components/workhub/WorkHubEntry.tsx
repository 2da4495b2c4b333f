import { useEffect } from 'react';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { delegationsNeedingAttention } from '../../state/reducers/workhub-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/workhub.css';
import { Spinner } from '../icons';
import { WorkHubIcon } from './workhub-icons';

/**
 * The WorkHub, pinned at the top of the sidebar (it is a session, but never in the list). A badge
 * counts work it handed out that now waits for the person or failed.
 */
export function WorkHubEntry() {
  const store = useStoreApi();
  const selected = useAppStore((state) => state.selectedSessionId === WORKHUB_SESSION_ID);
  const attention = useAppStore(
    (state) => delegationsNeedingAttention(state.workhub.delegations, state.sessions.byId).length,
  );
  const routing = useAppStore((state) => state.workhub.routing.length > 0);
  useDelegationsRead();

  return (
    <div className="workhub-entry-wrap">
      <button
        type="button"
        className={`workhub-entry${selected ? ' is-selected' : ''}`}
        data-testid="workhub-entry"
        aria-current={selected ? 'page' : undefined}
        onClick={() => store.getState().openWorkhub()}
      >
        <span className="workhub-entry-mark">
          <WorkHubIcon />
        </span>
        <span className="workhub-entry-text">
          <span className="workhub-entry-title">WorkHub</span>
          <span className="workhub-entry-sub">Say what you want done</span>
        </span>
        {routing ? <Spinner label="Routing a request" /> : null}
        {attention > 0 ? (
          <span
            className="workhub-entry-badge"
            data-testid="workhub-badge"
            title={`${attention} handed-out ${attention === 1 ? 'task needs' : 'tasks need'} you (waiting or failed)`}
          >
            {attention}
          </span>
        ) : null}
      </button>
    </div>
  );
}

/** The delegations feed the WorkHub's badge (in the sidebar and its rail): read them when the line to the host is (back) up. */
export function useDelegationsRead(): void {
  const store = useStoreApi();
  const online = useAppStore((state) => (state.connection.status === 'open' ? state.connection.generation : 0));
  useEffect(() => {
    if (online > 0) void store.getState().loadDelegations();
  }, [online, store]);
}
