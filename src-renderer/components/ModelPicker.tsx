import type { ModelInfo } from '../../src-shared/connection-model';
import type { CatalogState } from '../state/reducers/catalog-reducer';
import { effectiveModel, findConnection, modelLabel, pickableModels, selectableConnections } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { MODEL_PICKER_ID } from './focus-targets';
import { ChevronDownIcon, PlugIcon } from './icons';

interface PickerGroup {
  readonly connectionId: string;
  readonly name: string;
  readonly models: readonly ModelInfo[];
}

const SEPARATOR = '\n';

/** The choices: every usable connection's enabled models, plus the session's current choice wherever it is. */
export function pickerGroups(catalog: CatalogState, connectionId: string, model: string | null): PickerGroup[] {
  const groups: PickerGroup[] = selectableConnections(catalog).map((connection) => ({
    connectionId: connection.connectionId,
    name: connection.name,
    models: pickableModels(connection),
  }));
  const current = findConnection(catalog, connectionId);
  const chosen = effectiveModel(catalog, connectionId, model);
  if (current === undefined || chosen === null) return groups;
  const group = groups.find((candidate) => candidate.connectionId === connectionId);
  const option = { modelId: chosen, label: modelLabel(current, chosen) };
  if (group === undefined) return [...groups, { connectionId, name: current.name, models: [option] }];
  if (group.models.some((candidate) => candidate.modelId === chosen)) return groups;
  return groups.map((candidate) => (candidate === group ? { ...group, models: [...group.models, option] } : candidate));
}

export function encodeTarget(connectionId: string, modelId: string): string {
  return `${connectionId}${SEPARATOR}${modelId}`;
}

export function decodeTarget(value: string): { connectionId: string; modelId: string } | null {
  const index = value.indexOf(SEPARATOR);
  return index <= 0 ? null : { connectionId: value.slice(0, index), modelId: value.slice(index + 1) };
}

/**
 * The session's connection and model, changeable for the next turn. A native select (keyboard and
 * screen readers get a real listbox) under a label that names both the connection and the model.
 */
export function ModelPicker({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const connectionId = useAppStore((state) => state.sessions.byId[sessionId]?.connectionId);
  const model = useAppStore((state) => state.sessions.byId[sessionId]?.model ?? null);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const catalog = useAppStore((state) => state.catalog);
  if (!catalog.loaded || connectionId === undefined) return null;

  const connection = findConnection(catalog, connectionId);
  const chosen = effectiveModel(catalog, connectionId, model);
  const groups = pickerGroups(catalog, connectionId, model);
  const missing = connection === undefined;
  const value = missing || chosen === null ? '' : encodeTarget(connectionId, chosen);
  const shown = missing ? 'Choose a connection' : `${connection.name} · ${chosen === null ? 'no model' : modelLabel(connection, chosen)}`;

  return (
    <div className={`model-picker${missing || chosen === null ? ' needs-choice' : ''}`} data-testid="model-picker" title={shown}>
      <span className="model-picker-face" aria-hidden="true">
        <PlugIcon />
        <span className="model-picker-text">{shown}</span>
        <ChevronDownIcon />
      </span>
      <select
        id={MODEL_PICKER_ID}
        className="model-picker-select"
        aria-label="Connection and model for the next turn"
        value={value}
        disabled={archived}
        onChange={(event) => {
          const target = decodeTarget(event.target.value);
          if (target !== null) void store.getState().configureSession(sessionId, target.connectionId, target.modelId);
        }}
      >
        {value === '' ? (
          <option value="" disabled>
            {missing ? 'Choose a connection…' : 'Choose a model…'}
          </option>
        ) : null}
        {groups.map((group) => (
          <optgroup key={group.connectionId} label={group.name}>
            {group.models.map((option) => (
              <option key={option.modelId} value={encodeTarget(group.connectionId, option.modelId)}>
                {option.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
