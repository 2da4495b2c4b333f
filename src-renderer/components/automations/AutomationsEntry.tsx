import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/automations.css';
import { BellIcon } from '../icons';

/** The Automations view's entry, pinned in the sidebar under the WorkHub. */
export function AutomationsEntry() {
  const store = useStoreApi();
  const selected = useAppStore((state) => state.automations.open && state.selectedSessionId === null);
  useAutomationsFollowed();
  return (
    <div className="workhub-entry-wrap">
      <button
        type="button"
        className={`workhub-entry${selected ? ' is-selected' : ''}`}
        data-testid="automations-entry"
        aria-current={selected ? 'page' : undefined}
        onClick={() => store.getState().openAutomations()}
      >
        <span className="workhub-entry-mark">
          <BellIcon />
        </span>
        <span className="workhub-entry-text">
          <span className="workhub-entry-title">Automations</span>
          <span className="workhub-entry-sub">Scheduled tasks and the daily review</span>
        </span>
      </button>
    </div>
  );
}

/** What the Automations entry (in the sidebar or its rail) keeps up: the automations read, and the view left when a session opens. */
export function useAutomationsFollowed(): void {
  const store = useStoreApi();
  const leftForSession = useAppStore((state) => state.automations.open && state.selectedSessionId !== null);
  // The daily review's settings name its reserved session, which the session list pins at the top.
  useEffect(() => {
    void store.getState().loadAutomations();
  }, [store]);
  // Opening a session leaves the view: coming back to no session shows the welcome, not Automations.
  useEffect(() => {
    if (leftForSession) store.getState().closeAutomations();
  }, [leftForSession, store]);
}
