import { lazy, Suspense } from 'react';
import { retryingImport } from '../platform/retrying-import';
import { onlyBuiltIn } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { HostNameSlot } from './HostNameSlot';
import { CairnMark } from './icons';
import { newSessionLabel } from './shortcut-label';

/** The newcomer's welcome loads only where there is no session at all. */
const Welcome = lazy(() => retryingImport(() => import('./Welcome')).then((module) => ({ default: module.Welcome })));

/** What the main area shows with no session open: a welcome for a newcomer, or a nudge to pick one. */
export function WelcomeEmpty() {
  const store = useStoreApi();
  const hasSessions = useAppStore(
    (state) => state.sessions.listIds.length > 0 || state.sessions.view.archived || state.searchText !== '',
  );
  const listLoaded = useAppStore((state) => state.sessions.listLoaded);
  const firstRun = useAppStore((state) => onlyBuiltIn(state.catalog));
  const actions = store.getState();
  if (!listLoaded) return <div className="welcome" />;

  if (hasSessions) {
    return (
      <div className="welcome welcome-compact">
        <CairnMark size={40} />
        <p>
          Pick a session
          <span className="keys-hint">
            {' '}
            on the left, or start a new one with <kbd>{newSessionLabel()}</kbd>
          </span>
          .
        </p>
        <HostNameSlot variant="line" />
        {firstRun ? (
          <button
            type="button"
            className="text-button"
            onClick={() => actions.openSettings({ tab: 'connections', connectionId: 'new' })}
          >
            Connect a model provider…
          </button>
        ) : null}
      </div>
    );
  }

  return (
    <Suspense fallback={<div className="welcome" />}>
      <Welcome firstRun={firstRun} />
    </Suspense>
  );
}
