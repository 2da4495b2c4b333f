import { useAppStore, useStoreApi } from '../state/store-context';
import { DIRECTIVES } from './directives';
import { CairnMark } from './icons';
import { shortcutLabel } from './shortcut-label';

/** What the main area shows with no session open: a welcome for a newcomer, or a nudge to pick one. */
export function WelcomeEmpty() {
  const store = useStoreApi();
  const hasSessions = useAppStore((state) => state.sessions.listIds.length > 0 || state.sessions.view.archived || state.searchText !== '');
  const listLoaded = useAppStore((state) => state.sessions.listLoaded);
  if (!listLoaded) return <div className="welcome" />;

  if (hasSessions) {
    return (
      <div className="welcome welcome-compact">
        <CairnMark size={40} />
        <p>
          Pick a session on the left, or start a new one with <kbd>{shortcutLabel('N')}</kbd>.
        </p>
      </div>
    );
  }

  return (
    <div className="welcome">
      <CairnMark size={56} />
      <h1>Welcome to Cairn</h1>
      <p className="welcome-lead">
        A workspace for working with AI agents. Each session is a conversation with an agent: you ask, it works and streams its
        answer, and you can stop it or pick it back up at any moment. Everything is kept on this machine.
      </p>
      <button type="button" className="button button-primary button-large" onClick={() => void store.getState().createSession()}>
        Start your first session
      </button>
      <div className="welcome-demo">
        <h2>No API key needed to try it</h2>
        <p>New sessions use the offline demo agent, which answers from a script. Send it one of these:</p>
        <dl className="directive-list">
          {DIRECTIVES.map((directive) => (
            <div key={directive.example} className="directive">
              <dt>
                <code>{directive.example}</code>
              </dt>
              <dd>{directive.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
