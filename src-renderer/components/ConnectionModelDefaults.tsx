import { useEffect, useState } from 'react';
import type { ConnectionRecord } from '../../src-shared/connection-model';
import type { ModelSettings, ReasoningEffort } from '../../src-shared/chat-model';
import { REASONING_EFFORTS } from '../../src-shared/chat-model';
import { modelSettingsDraft, parseModelSettings, type ModelSettingsDraft } from '../forms/model-settings-form';
import { useAppStore, useStoreApi } from '../state/store-context';
import { FieldFrame } from './FieldFrame';

/** Settings → a model connection: the model settings its sessions use unless a session sets its own. */
export function ConnectionModelDefaults({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const saved = useAppStore((state) => state.connectionModelSettings[connection.connectionId]);
  const usesModels =
    !connection.builtIn && connection.providerType !== 'codex' && connection.providerType !== 'scripted';
  useEffect(() => {
    if (usesModels) void store.getState().loadConnectionModelSettings(connection.connectionId);
  }, [store, connection.connectionId, usesModels]);
  if (!usesModels || saved === undefined) return null;
  return <DefaultsForm key={connection.connectionId} connectionId={connection.connectionId} saved={saved} />;
}

function DefaultsForm({ connectionId, saved }: { connectionId: string; saved: ModelSettings }) {
  const store = useStoreApi();
  const [draft, setDraft] = useState<ModelSettingsDraft>(modelSettingsDraft(saved));
  const [attempted, setAttempted] = useState(false);
  const [note, setNote] = useState('');
  const parsed = parseModelSettings(draft);
  const shown = attempted && 'problems' in parsed ? parsed.problems : {};
  const id = `model-defaults-${connectionId}`;
  const change = (patch: Partial<ModelSettingsDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setNote('');
  };
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h4 id={id}>Model settings</h4>
      <p className="settings-note">
        What this connection’s sessions send unless a session sets its own (Conversation menu → Model settings). Empty
        means the provider’s default.
      </p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if ('problems' in parsed) {
            setAttempted(true);
            return;
          }
          void store
            .getState()
            .saveConnectionModelSettings(connectionId, parsed.settings)
            .then((ok) => setNote(ok ? 'Saved. New turns use these settings.' : ''));
        }}
      >
        <div className="field-pair">
          <FieldFrame
            controlId={`${id}-temperature`}
            label="Temperature"
            hint="0 to 2"
            error={shown.temperature ?? null}
          >
            {(aria) => (
              <input
                {...aria}
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
            hint="1 to 1,000,000"
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
        <FieldFrame controlId={`${id}-effort`} label="Reasoning effort" hint="OpenAI, Anthropic and compatible servers">
          {(aria) => (
            <select
              {...aria}
              className="input"
              value={draft.reasoningEffort}
              onChange={(event) => change({ reasoningEffort: event.target.value as ReasoningEffort | '' })}
            >
              <option value="">Provider’s default</option>
              {REASONING_EFFORTS.map((effort) => (
                <option key={effort} value={effort}>
                  {effort}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
        <div className="section-row">
          <button type="submit" className="button button-small">
            Save model settings
          </button>
          <span role="status" className="instructions-status">
            {note}
          </span>
        </div>
      </form>
    </section>
  );
}
