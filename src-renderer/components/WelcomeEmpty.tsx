import { useEffect } from 'react';
import type { DiscoveredServer } from '../../src-shared/connection-model';
import { PROVIDER_LABELS } from '../forms/connection-labels';
import { onlyBuiltIn } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { DirectiveList } from './DirectiveList';
import { CairnMark, PlayIcon, PlugIcon, PlusIcon, Spinner } from './icons';
import { newSessionLabel } from './shortcut-label';

/** What the main area shows with no session open: a welcome for a newcomer, or a nudge to pick one. */
export function WelcomeEmpty() {
  const store = useStoreApi();
  const hasSessions = useAppStore((state) => state.sessions.listIds.length > 0 || state.sessions.view.archived || state.searchText !== '');
  const listLoaded = useAppStore((state) => state.sessions.listLoaded);
  const firstRun = useAppStore((state) => onlyBuiltIn(state.catalog));
  const actions = store.getState();
  if (!listLoaded) return <div className="welcome" />;

  if (hasSessions) {
    return (
      <div className="welcome welcome-compact">
        <CairnMark size={40} />
        <p>
          Pick a session on the left, or start a new one with <kbd>{newSessionLabel()}</kbd>.
        </p>
        {firstRun ? (
          <button type="button" className="text-button" onClick={() => actions.openSettings({ tab: 'connections', connectionId: 'new' })}>
            Connect a model provider…
          </button>
        ) : null}
      </div>
    );
  }

  return (
    <div className="welcome">
      <CairnMark size={56} />
      <h1>Welcome to Cairn</h1>
      <p className="welcome-lead">
        A workspace for working with AI agents. Each session is a conversation with an agent: you ask, it works and streams its answer, and you can stop it or pick it back up at
        any moment. Everything is kept on this machine.
      </p>
      {firstRun ? (
        <FirstRunChoices />
      ) : (
        <button type="button" className="button button-primary button-large" onClick={() => void actions.createSession()}>
          Start your first session
        </button>
      )}
      <div className="welcome-demo">
        <h2>No API key needed to try it</h2>
        <p>The Offline demo agent answers from a script. Send it one of these:</p>
        <DirectiveList />
      </div>
    </div>
  );
}

/** First run: local model servers found on this machine, adding a connection, or the Offline demo. */
function FirstRunChoices() {
  const store = useStoreApi();
  const discovery = useAppStore((state) => state.discovery);
  const actions = store.getState();

  useEffect(() => {
    void store.getState().discoverServers();
  }, [store]);

  return (
    <div className="first-run" aria-label="Ways to start">
      {discovery.state === 'loading' ? (
        <p className="first-run-looking" role="status">
          <Spinner /> Looking for model servers on this computer…
        </p>
      ) : null}
      {discovery.state === 'done' ? discovery.servers.map((server) => <DiscoveredChoice key={`${server.providerType} ${server.baseUrl}`} server={server} />) : null}
      <div className="first-run-row">
        <button type="button" className="choice-card" onClick={() => actions.openSettings({ tab: 'connections', connectionId: 'new' })}>
          <PlusIcon />
          <span className="choice-card-title">Add a connection</span>
          <span className="choice-card-text">OpenAI, Anthropic, Ollama or any OpenAI-compatible server</span>
        </button>
        <button type="button" className="choice-card" onClick={() => void actions.createSession()}>
          <PlayIcon />
          <span className="choice-card-title">Try the Offline demo</span>
          <span className="choice-card-text">A scripted agent: no key, no network</span>
        </button>
      </div>
    </div>
  );
}

function DiscoveredChoice({ server }: { server: DiscoveredServer }) {
  const store = useStoreApi();
  const count = server.models.length;
  return (
    <button type="button" className="choice-card choice-card-found" onClick={() => void store.getState().useDiscoveredServer(server)}>
      <PlugIcon />
      <span className="choice-card-title">
        Use {server.name} at {server.baseUrl}
      </span>
      <span className="choice-card-text">
        Found on this computer · {PROVIDER_LABELS[server.providerType]} · {count === 0 ? 'no models yet' : count === 1 ? '1 model' : `${count} models`}
      </span>
    </button>
  );
}
