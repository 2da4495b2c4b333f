import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import { effectiveModel, findConnection, modelLabel } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { featuredDirectives, useDirectives } from './directives';
import { focusComposer } from './focus-targets';

/** How to send, which a touch screen does not advertise (phone.css): there Send is the button beside the box. */
const TYPE_BELOW = (
  <span className="keys-hint">
    Type below and press <kbd>Enter</kbd>.{' '}
  </span>
);

/** A session with no messages yet: the model it talks to, or what to try with the offline demo agent. */
export function SessionEmpty({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const directives = useDirectives();
  const target = useAppStore((state) => {
    const session = state.sessions.byId[sessionId];
    if (session === undefined || session.connectionId === OFFLINE_DEMO_CONNECTION_ID || !state.catalog.loaded)
      return null;
    const connection = findConnection(state.catalog, session.connectionId);
    if (connection === undefined) return 'missing';
    const model = effectiveModel(state.catalog, session.connectionId, session.model);
    return `${connection.name}${model === null ? '' : ` · ${modelLabel(connection, model)}`}`;
  });
  if (target === 'missing') {
    return (
      <div className="session-empty">
        <h2>Start the conversation</h2>
        <p>Pick a connection and model above first: this session’s connection no longer exists.</p>
      </div>
    );
  }
  if (target !== null) {
    return (
      <div className="session-empty">
        <h2>Start the conversation</h2>
        <p>
          {TYPE_BELOW}
          This session talks to <strong>{target}</strong>; you can pick another model above for the next turn.
        </p>
      </div>
    );
  }
  return (
    <div className="session-empty">
      <h2>Start the conversation</h2>
      <p>
        {TYPE_BELOW}
        This session uses the offline demo agent, which needs no API key and follows directives. Pick one to try it:
      </p>
      <ul className="directive-chips" role="list">
        {featuredDirectives(directives).map((directive) => (
          <li key={directive.example}>
            <button
              type="button"
              className="directive-chip"
              title={directive.what}
              onClick={() => {
                store.getState().setDraft(sessionId, directive.example);
                focusComposer();
              }}
            >
              <code>{directive.example}</code>
              <span>{directive.what}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
