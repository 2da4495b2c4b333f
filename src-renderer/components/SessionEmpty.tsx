import { useStoreApi } from '../state/store-context';
import { DIRECTIVES } from './directives';
import { focusComposer } from './focus-targets';

/** A session with no messages yet: what to try with the offline demo agent. */
export function SessionEmpty({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  return (
    <div className="session-empty">
      <h2>Start the conversation</h2>
      <p>
        Type below and press <kbd>Enter</kbd>. This session uses the offline demo agent, which needs no API key and follows
        directives. Pick one to try it:
      </p>
      <ul className="directive-chips" role="list">
        {DIRECTIVES.map((directive) => (
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
