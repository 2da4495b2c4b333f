import { useEffect } from 'react';
import type { DiscoveredServer } from '../../src-shared/connection-model';
import { PROVIDER_LABELS } from '../forms/connection-labels';
import { useAppStore, useStoreApi } from '../state/store-context';
import { DirectiveList } from './DirectiveList';
import { HostNameSlot } from './HostNameSlot';
import { CairnMark, PlayIcon, PlugIcon, PlusIcon, Spinner } from './icons';

/** A newcomer's welcome, with no session yet: what Cairn is, how to start (on first run: local servers found, a connection, the Offline demo), and what to send the demo. */
export function Welcome({ firstRun }: { firstRun: boolean }) {
  const store = useStoreApi();
  const actions = store.getState();
  return (
    <div className="welcome">
      <CairnMark size={56} />
      <h1>Welcome to Cairn</h1>
      <HostNameSlot variant="line" />
      <p className="welcome-lead">
        A workspace for working with AI agents. Each session is a conversation with an agent: you ask, it works and
        streams its answer, and you can stop it or pick it back up at any moment. Everything is kept on this machine.
      </p>
      {firstRun ? (
        <FirstRunChoices />
      ) : (
        <button
          type="button"
          className="button button-primary button-large"
          onClick={() => void actions.createSession()}
        >
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
      {discovery.state === 'done'
        ? discovery.servers.map((server) => (
            <DiscoveredChoice key={`${server.providerType} ${server.baseUrl}`} server={server} />
          ))
        : null}
      <div className="first-run-row">
        <button
          type="button"
          className="choice-card"
          onClick={() => actions.openSettings({ tab: 'connections', connectionId: 'new' })}
        >
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
    <button
      type="button"
      className="choice-card choice-card-found"
      onClick={() => void store.getState().useDiscoveredServer(server)}
    >
      <PlugIcon />
      <span className="choice-card-title">
        Use {server.name} at {server.baseUrl}
      </span>
      <span className="choice-card-text">
        Found on this computer · {PROVIDER_LABELS[server.providerType]} ·{' '}
        {count === 0 ? 'no models yet' : count === 1 ? '1 model' : `${count} models`}
      </span>
    </button>
  );
}
