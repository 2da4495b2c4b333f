import { useEffect, useId, useState } from 'react';
import { MAX_INSTRUCTIONS_LENGTH } from '../../src-shared/chat-model';
import { useAppStore, useStoreApi } from '../state/store-context';
import { FieldFrame } from './FieldFrame';
import { Spinner } from './icons';

/** Settings → Instructions: what every session's agent is told before the conversation. */
export function InstructionsPage() {
  const store = useStoreApi();
  const saved = useAppStore((state) => state.globalInstructions);
  const id = useId();

  useEffect(() => {
    void store.getState().loadGlobalInstructions();
  }, [store]);

  if (saved === null) {
    return (
      <div className="settings-loading">
        <Spinner label="Loading instructions" />
      </div>
    );
  }
  return <InstructionsForm id={id} saved={saved} save={(text) => store.getState().saveGlobalInstructions(text)} />;
}

function InstructionsForm({
  id,
  saved,
  save,
}: {
  id: string;
  saved: string;
  save: (text: string) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState(saved);
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  return (
    <form
      className="instructions-page"
      onSubmit={(event) => {
        event.preventDefault();
        setState('saving');
        void save(draft).then((ok) => setState(ok ? 'saved' : 'idle'));
      }}
    >
      <h3 className="settings-heading">Instructions for every session</h3>
      <FieldFrame
        controlId={`${id}-global`}
        label="Custom instructions"
        help="Added to the system prompt of every session, before the session’s own instructions. For example: your role, your stack, how you like answers."
        hint={`${draft.length.toLocaleString('en-US')} / ${MAX_INSTRUCTIONS_LENGTH.toLocaleString('en-US')} characters`}
      >
        {(aria) => (
          <textarea
            {...aria}
            className="input textarea"
            rows={8}
            maxLength={MAX_INSTRUCTIONS_LENGTH}
            value={draft}
            placeholder="I work in TypeScript and prefer short answers with code."
            onChange={(event) => {
              setDraft(event.target.value);
              setState('idle');
            }}
          />
        )}
      </FieldFrame>
      <div className="dialog-actions">
        <span role="status" className="instructions-status">
          {state === 'saved' ? 'Saved. New turns use these instructions.' : ''}
        </span>
        <button type="submit" className="button button-primary" disabled={state === 'saving' || draft.trim() === saved}>
          Save instructions
        </button>
      </div>
    </form>
  );
}
