import { useEffect, useState } from 'react';
import type { ConnectionRecord } from '../../src-shared/connection-model';
import { modelWindowOf } from '../../src-shared/model-windows';
import { tokenCount } from '../format/context-meter';
import { pickableModels } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { CompactionThresholdRow } from './CompactionThresholdRow';
import { SettingsModelChoice } from './SettingsModelChoice';

/** A connection's context windows: per model, the window Cairn uses and the part kept for the answer; the person may set their own. */
export function ContextWindowSection({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const settings = useAppStore((state) => state.modelWindows);
  const models = pickableModels(connection);
  const [modelId, setModelId] = useState<string>('');
  const [windowText, setWindowText] = useState('');
  const [reserveText, setReserveText] = useState('');
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  useEffect(() => {
    void store.getState().loadModelWindows();
  }, [store]);
  const chosen = models.some((model) => model.modelId === modelId) ? modelId : (models[0]?.modelId ?? '');
  const override =
    settings?.overrides.find((entry) => entry.connectionId === connection.connectionId && entry.modelId === chosen) ??
    null;
  const reportedContextLength = models.find((model) => model.modelId === chosen)?.contextLength ?? null;
  const current = modelWindowOf(connection.providerType, chosen, { override, reportedContextLength });
  useEffect(() => {
    setWindowText(String(current.contextWindow));
    setReserveText(String(current.outputReserve));
  }, [chosen, current.contextWindow, current.outputReserve]);
  if (models.length === 0 || connection.providerType === 'codex' || connection.builtIn) return null;
  const id = connection.connectionId;
  const source =
    current.source === 'override'
      ? 'set here'
      : current.source === 'known'
        ? reportedContextLength === null
          ? 'known for this model'
          : 'as the server reports it'
        : 'a default: Cairn does not know this model';

  const save = (window: { contextWindow: number; outputReserve: number } | null) => {
    setNotice(null);
    void store
      .getState()
      .setModelWindow(id, chosen, window)
      .then((message) =>
        setNotice(
          message === null
            ? { tone: 'ok', text: window === null ? 'Back to the usual window.' : 'Saved.' }
            : { tone: 'error', text: message },
        ),
      );
  };

  return (
    <section className="settings-section" aria-labelledby={`context-${id}`} data-testid="context-window-section">
      <h4 id={`context-${id}`}>Context window</h4>
      <p className="settings-note" data-testid="context-window-note">
        {tokenCount(current.contextWindow)} tokens, {tokenCount(current.outputReserve)} kept for the answer ({source}).
        Near the end of the window older turns are summarised by the model; the transcript keeps them.
      </p>
      <div className="section-row">
        <SettingsModelChoice
          label="Model"
          connection={connection}
          models={models}
          value={chosen}
          onChoose={setModelId}
        />
        <label className="field-inline">
          <span>Window (tokens)</span>
          <input
            className="input"
            type="number"
            min={1000}
            step={1000}
            value={windowText}
            onChange={(event) => setWindowText(event.target.value)}
          />
        </label>
        <label className="field-inline">
          <span>Kept for the answer</span>
          <input
            className="input"
            type="number"
            min={0}
            step={500}
            value={reserveText}
            onChange={(event) => setReserveText(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button"
          onClick={() => {
            const contextWindow = Number(windowText);
            const outputReserve = Number(reserveText);
            if (
              !Number.isInteger(contextWindow) ||
              contextWindow < 1000 ||
              !Number.isInteger(outputReserve) ||
              outputReserve < 0
            ) {
              setNotice({
                tone: 'error',
                text: 'Give the window as a whole number of tokens, at least 1000, and the reserve as a whole number.',
              });
              return;
            }
            save({ contextWindow, outputReserve });
          }}
        >
          Save window
        </button>
        {override === null ? null : (
          <button type="button" className="button button-quiet" onClick={() => save(null)}>
            Use the usual window
          </button>
        )}
      </div>
      {notice === null ? null : (
        <p className={`form-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      <CompactionThresholdRow />
    </section>
  );
}
