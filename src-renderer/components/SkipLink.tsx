import { useStoreApi } from '../state/store-context';
import { COMPOSER_INPUT_ID, focusComposer } from './focus-targets';

/**
 * The first Tab stop: hidden until focused, it jumps past the sidebar to the message box. With no
 * session open it opens the most recent one (or starts one), whose message box then takes focus.
 */
export function SkipLink() {
  const store = useStoreApi();
  return (
    <a
      className="skip-link"
      href={`#${COMPOSER_INPUT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        if (document.getElementById(COMPOSER_INPUT_ID) !== null) return focusComposer();
        const state = store.getState();
        const recent = state.sessions.listIds[0];
        if (recent === undefined) void state.createSession();
        else state.selectSession(recent);
      }}
    >
      Skip to the message box
    </a>
  );
}
