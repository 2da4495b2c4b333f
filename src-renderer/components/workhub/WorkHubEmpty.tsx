import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { useStoreApi } from '../../state/store-context';
import { focusComposer } from '../focus-targets';

const EXAMPLES: ReadonlyArray<{ readonly text: string; readonly what: string }> = [
  { text: 'Add the revenue chart to the quarterly report', what: 'hands it to the session it belongs to' },
  { text: 'new: plan a birthday party for Sam', what: 'starts new work for it' },
  { text: 'What is running?', what: 'answers here, from what your sessions are doing' },
  { text: 'stop the quarterly report', what: 'stops work it handed out — after you confirm' },
];

/** The WorkHub before anything was asked: what it is for, and a few things to try. */
export function WorkHubEmpty() {
  const store = useStoreApi();
  return (
    <div className="session-empty workhub-empty">
      <h2>Say what you want done</h2>
      <p>
        The WorkHub looks through your sessions, proposes where a request belongs — and why — and acts only when you say
        so. Try one of these:
      </p>
      <ul className="workhub-examples" role="list">
        {EXAMPLES.map((example) => (
          <li key={example.text}>
            <button
              type="button"
              className="workhub-example"
              onClick={() => {
                store.getState().setDraft(WORKHUB_SESSION_ID, example.text);
                focusComposer();
              }}
            >
              <span className="workhub-example-text">{example.text}</span>
              <span className="workhub-example-what">{example.what}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
