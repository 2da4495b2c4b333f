import { useId, useState } from 'react';
import type { ConnectionRecord } from '../../src-shared/connection-model';
import { sessionTimeLabel } from '../format/dates';
import { useAppStore, useStoreApi } from '../state/store-context';
import { RetryIcon, Spinner } from './icons';

/** Lists with more models than this get a filter box. */
const FILTER_FROM = 8;

/** A connection's models: read them from the provider, and tick the ones sessions may pick. Ticks save at once. */
export function ConnectionModels({ connection }: { connection: ConnectionRecord }) {
  const store = useStoreApi();
  const id = useId();
  const fetch = useAppStore((state) => state.modelFetches[connection.connectionId]);
  const selection = useAppStore((state) => state.modelSelections[connection.connectionId]);
  const [filter, setFilter] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const enabled = new Set(selection ?? connection.enabledModelIds);
  const fetching = fetch?.state === 'fetching';
  const query = filter.trim().toLowerCase();
  const models = connection.models.filter(
    (model) => query === '' || `${model.label} ${model.modelId}`.toLowerCase().includes(query),
  );
  // A model enabled by id but not in the fetched list (typed by hand, or since retired) still shows.
  const unlisted = [...enabled].filter((modelId) => !connection.models.some((model) => model.modelId === modelId));

  const toggle = (modelId: string, on: boolean) => {
    const next = on ? [...enabled, modelId] : [...enabled].filter((known) => known !== modelId);
    setMessage(null);
    void store
      .getState()
      .setEnabledModels(connection.connectionId, next)
      .then((outcome) => setMessage(outcome.ok ? null : outcome.message));
  };

  const status = fetching
    ? 'Reading the models…'
    : connection.modelsFetchedAt === null
      ? connection.builtIn
        ? null
        : 'Not read yet.'
      : `${enabled.size} of ${connection.models.length} enabled · read ${sessionTimeLabel(connection.modelsFetchedAt, Date.now())}`;

  return (
    <section className="settings-section" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Models</h4>
      {connection.builtIn ? null : (
        <div className="section-row">
          <button
            type="button"
            className="button"
            disabled={fetching}
            onClick={() => {
              setMessage(null);
              void store.getState().fetchModels(connection.connectionId);
            }}
          >
            {fetching ? <Spinner /> : <RetryIcon />}
            Fetch models
          </button>
          <span className="settings-note" role="status" data-testid="models-status">
            {status}
          </span>
        </div>
      )}
      {fetch?.state === 'failed' ? (
        <p className="form-notice tone-error" role="alert">
          {fetch.message}
        </p>
      ) : null}
      {connection.models.length > FILTER_FROM ? (
        <input
          className="input model-filter"
          type="search"
          aria-label="Filter models"
          placeholder="Filter models"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      ) : null}
      {connection.models.length > 0 || unlisted.length > 0 ? (
        <fieldset className="model-list" aria-describedby={`${id}-help`}>
          <legend className="visually-hidden">Models sessions can use</legend>
          <p id={`${id}-help`} className="field-help">
            Ticked models appear in the session’s model picker.
          </p>
          <ul>
            {[
              ...models.map((model) => ({ ...model, listed: true })),
              ...unlisted.map((modelId) => ({ modelId, label: modelId, listed: false })),
            ].map((model) => (
              <li key={model.modelId}>
                <label className="check-row">
                  <input
                    type="checkbox"
                    checked={enabled.has(model.modelId)}
                    disabled={connection.builtIn}
                    onChange={(event) => toggle(model.modelId, event.target.checked)}
                  />
                  <span className="check-label">{model.label}</span>
                  {model.label !== model.modelId ? <code className="check-id">{model.modelId}</code> : null}
                  {model.listed ? null : <span className="check-id">not in the list</span>}
                </label>
              </li>
            ))}
            {models.length === 0 && query !== '' ? (
              <li className="settings-note">No model matches “{filter.trim()}”.</li>
            ) : null}
          </ul>
        </fieldset>
      ) : null}
      {message === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}
