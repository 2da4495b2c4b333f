import { useEffect } from 'react';
import { acpAgentDisplayName, type AcpAgentIdentity } from '../../src-shared/acp-model';
import type { ConnectionRecord, ModelInfo } from '../../src-shared/connection-model';
import type { ModelWindowOverride } from '../../src-shared/context-model';
import { choiceKey, choicesOf, type ModelChoice } from '../format/model-choice';
import { acpAgentLabel } from '../forms/connection-labels';
import type { CatalogState } from '../state/reducers/catalog-reducer';
import {
  effectiveModel,
  findConnection,
  modelLabel,
  pickableModels,
  selectableConnections,
} from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { MODEL_PICKER_ID } from './focus-targets';
import { ChevronDownIcon, PlugIcon } from './icons';
import { ModelCombobox } from './ModelCombobox';

interface PickerGroup {
  readonly connectionId: string;
  readonly name: string;
  readonly models: readonly ModelInfo[];
}

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
  const option = current.models.find((candidate) => candidate.modelId === chosen) ?? { modelId: chosen, label: chosen };
  if (group === undefined) return [...groups, { connectionId, name: current.name, models: [option] }];
  if (group.models.some((candidate) => candidate.modelId === chosen)) return groups;
  return groups.map((candidate) => (candidate === group ? { ...group, models: [...group.models, option] } : candidate));
}

/** The picker's entries: every usable connection's enabled models (and the session's own choice), with windows and prices. */
export function pickerChoices(
  catalog: CatalogState,
  connectionId: string,
  model: string | null,
  overrides: readonly ModelWindowOverride[],
): ModelChoice[] {
  return pickerGroups(catalog, connectionId, model).flatMap((group) => {
    const connection = findConnection(catalog, group.connectionId);
    return connection === undefined ? [] : choicesOf(connection, group.models, overrides);
  });
}

/**
 * An ACP agent picks its own model, so the face names the agent instead: as it named itself once it
 * has started for the session (`initialize`), else what the connection runs. Null for other connections.
 */
export function agentNameOf(connection: ConnectionRecord, reported: AcpAgentIdentity | null): string | null {
  if (connection.providerType !== 'acp') return null;
  return reported === null ? acpAgentLabel(connection) : acpAgentDisplayName(reported);
}

/**
 * The session's connection and model, changeable for the next turn: a searchable list naming each
 * model's connection, context window and price, under a face that names both connection and model.
 */
export function ModelPicker({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const connectionId = useAppStore((state) => state.sessions.byId[sessionId]?.connectionId);
  const model = useAppStore((state) => state.sessions.byId[sessionId]?.model ?? null);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const catalog = useAppStore((state) => state.catalog);
  const reported = useAppStore((state) => state.acpAgents[sessionId] ?? null);
  const windows = useAppStore((state) => state.modelWindows);
  useEffect(() => {
    if (windows === null) void store.getState().loadModelWindows();
  }, [store, windows]);
  if (!catalog.loaded || connectionId === undefined) return null;

  const connection = findConnection(catalog, connectionId);
  const chosen = effectiveModel(catalog, connectionId, model);
  const choices = pickerChoices(catalog, connectionId, model, windows?.overrides ?? []);
  const missing = connection === undefined;
  const agent = connection === undefined ? null : agentNameOf(connection, reported);
  const shown = missing
    ? 'Choose a connection'
    : `${connection.name} · ${agent ?? (chosen === null ? 'no model' : modelLabel(connection, chosen))}`;

  return (
    <div
      className={`model-picker${missing || (chosen === null && agent === null) ? ' needs-choice' : ''}`}
      data-testid="model-picker"
    >
      <ModelCombobox
        id={MODEL_PICKER_ID}
        label="Connection and model for the next turn"
        choices={choices}
        value={missing || chosen === null ? null : choiceKey(connectionId, chosen)}
        disabled={archived}
        summary={shown}
        onChoose={(choice) => void store.getState().configureSession(sessionId, choice.connectionId, choice.modelId)}
        face={
          <span className="model-picker-face">
            <PlugIcon />
            <span className="model-picker-text">{shown}</span>
            <ChevronDownIcon />
          </span>
        }
      />
    </div>
  );
}
