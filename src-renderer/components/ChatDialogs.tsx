import { useId, useRef, useState } from 'react';
import type { ModelSettings, ReasoningEffort } from '../../src-shared/chat-model';
import { MAX_INSTRUCTIONS_LENGTH, REASONING_EFFORTS } from '../../src-shared/chat-model';
import { modelSettingsDraft, parseModelSettings, type ModelSettingsDraft } from '../forms/model-settings-form';
import { useAppStore, useStoreApi } from '../state/store-context';
import { Dialog } from './Dialog';
import { FieldFrame } from './FieldFrame';

/** The session's Instructions and Model settings dialogs, opened from its Conversation menu. */
export function ChatDialogs() {
  const dialog = useAppStore((state) => state.chatDialog);
  const loaded = useAppStore((state) => (dialog === null ? false : state.preferences[dialog.sessionId] !== undefined));
  if (dialog === null || !loaded) return null;
  return dialog.kind === 'instructions' ? (
    <InstructionsDialog sessionId={dialog.sessionId} />
  ) : (
    <ModelSettingsDialog sessionId={dialog.sessionId} />
  );
}

function InstructionsDialog({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const preferences = useAppStore((state) => state.preferences[sessionId]);
  const [draft, setDraft] = useState(preferences?.instructions ?? '');
  const [busy, setBusy] = useState(false);
  const firstRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const close = () => store.getState().setChatDialog(null);
  const global = preferences?.globalInstructions ?? '';
  return (
    <Dialog
      labelledBy={`${id}-title`}
      describedBy={`${id}-lead`}
      onClose={close}
      initialFocus={firstRef}
      className="chat-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          void store
            .getState()
            .savePreferences(sessionId, { instructions: draft })
            .then((saved) => {
              setBusy(false);
              if (saved) close();
            });
        }}
      >
        <h2 id={`${id}-title`}>Instructions for this session</h2>
        <p id={`${id}-lead`} className="dialog-lead">
          Added to the system prompt of this session’s turns, after the instructions for every session.
        </p>
        <FieldFrame
          controlId={`${id}-text`}
          label="Instructions"
          hint={`${draft.length.toLocaleString('en-US')} / ${MAX_INSTRUCTIONS_LENGTH.toLocaleString('en-US')} characters`}
        >
          {(aria) => (
            <textarea
              {...aria}
              ref={firstRef}
              className="input textarea"
              rows={6}
              maxLength={MAX_INSTRUCTIONS_LENGTH}
              value={draft}
              placeholder="Reply in French. Keep code samples short."
              onChange={(event) => setDraft(event.target.value)}
            />
          )}
        </FieldFrame>
        <div className="chat-dialog-note">
          <strong>For every session</strong> (Settings → Instructions):{' '}
          {global === '' ? <em>none</em> : <span className="chat-dialog-quote">{global}</span>}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function ModelSettingsDialog({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const preferences = useAppStore((state) => state.preferences[sessionId]);
  const [draft, setDraft] = useState<ModelSettingsDraft>(modelSettingsDraft(preferences?.modelSettings ?? {}));
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const firstRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const close = () => store.getState().setChatDialog(null);
  const parsed = parseModelSettings(draft);
  const shown = attempted && 'problems' in parsed ? parsed.problems : {};
  const defaults: ModelSettings = preferences?.connectionModelSettings ?? {};
  const change = (patch: Partial<ModelSettingsDraft>) => setDraft((current) => ({ ...current, ...patch }));
  return (
    <Dialog
      labelledBy={`${id}-title`}
      describedBy={`${id}-lead`}
      onClose={close}
      initialFocus={firstRef}
      className="chat-dialog"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if ('problems' in parsed) {
            setAttempted(true);
            return;
          }
          setBusy(true);
          void store
            .getState()
            .savePreferences(sessionId, { modelSettings: parsed.settings })
            .then((saved) => {
              setBusy(false);
              if (saved) close();
            });
        }}
      >
        <h2 id={`${id}-title`}>Model settings for this session</h2>
        <p id={`${id}-lead`} className="dialog-lead">
          Empty fields use the connection’s defaults or the provider’s. Providers that lack a setting ignore it.
        </p>
        <div className="field-pair">
          <FieldFrame
            controlId={`${id}-temperature`}
            label="Temperature"
            hint={`0 to 2 · default: ${defaults.temperature ?? 'the provider’s'}`}
            error={shown.temperature ?? null}
          >
            {(aria) => (
              <input
                {...aria}
                ref={firstRef}
                className="input"
                type="text"
                inputMode="decimal"
                autoComplete="off"
                value={draft.temperature}
                onChange={(event) => change({ temperature: event.target.value })}
              />
            )}
          </FieldFrame>
          <FieldFrame
            controlId={`${id}-max`}
            label="Max output tokens"
            hint={`default: ${defaults.maxOutputTokens?.toLocaleString('en-US') ?? 'the provider’s'}`}
            error={shown.maxOutputTokens ?? null}
          >
            {(aria) => (
              <input
                {...aria}
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                value={draft.maxOutputTokens}
                onChange={(event) => change({ maxOutputTokens: event.target.value })}
              />
            )}
          </FieldFrame>
        </div>
        <FieldFrame
          controlId={`${id}-effort`}
          label="Reasoning effort"
          hint={`OpenAI, Anthropic and compatible servers · default: ${defaults.reasoningEffort ?? 'the provider’s'}`}
        >
          {(aria) => (
            <select
              {...aria}
              className="input"
              value={draft.reasoningEffort}
              onChange={(event) => change({ reasoningEffort: event.target.value as ReasoningEffort | '' })}
            >
              <option value="">Default</option>
              {REASONING_EFFORTS.map((effort) => (
                <option key={effort} value={effort}>
                  {effort[0]?.toUpperCase()}
                  {effort.slice(1)}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
