import type { ConnectionRecord, ModelInfo, ModelTarget } from '../../../src-shared/connection-model';
import type { ConnectionCatalog } from '../../../src-shared/operations';

/** The connection catalog as the renderer holds it: what connection.list answered, kept current. */
export interface CatalogState {
  readonly connections: readonly ConnectionRecord[];
  readonly defaultTarget: ModelTarget | null;
  /** -1 until the first connection.list answer. */
  readonly catalogRevision: number;
  readonly loaded: boolean;
}

export const EMPTY_CATALOG: CatalogState = { connections: [], defaultTarget: null, catalogRevision: -1, loaded: false };

/** A connection.list answer; an answer older than what is held (a slow read) is ignored. */
export function applyCatalog(state: CatalogState, catalog: ConnectionCatalog): CatalogState {
  if (state.loaded && catalog.catalogRevision < state.catalogRevision) return state;
  return {
    connections: catalog.connections,
    defaultTarget: catalog.defaultTarget,
    catalogRevision: catalog.catalogRevision,
    loaded: true,
  };
}

/** A connection from a create/update/fetch answer; an older revision never replaces a newer one. */
export function upsertConnection(state: CatalogState, connection: ConnectionRecord): CatalogState {
  const index = state.connections.findIndex((known) => known.connectionId === connection.connectionId);
  if (index === -1) return { ...state, connections: [...state.connections, connection] };
  const known = state.connections[index];
  if (known !== undefined && known.revision > connection.revision) return state;
  const connections = [...state.connections];
  connections[index] = connection;
  return { ...state, connections };
}

export function dropConnection(state: CatalogState, connectionId: string): CatalogState {
  const connections = state.connections.filter((connection) => connection.connectionId !== connectionId);
  if (connections.length === state.connections.length) return state;
  const defaultTarget = state.defaultTarget?.connectionId === connectionId ? null : state.defaultTarget;
  return { ...state, connections, defaultTarget };
}

export function findConnection(state: CatalogState, connectionId: string): ConnectionRecord | undefined {
  return state.connections.find((connection) => connection.connectionId === connectionId);
}

/** Whether the person has set up nothing beyond the built-in Offline demo. */
export function onlyBuiltIn(state: CatalogState): boolean {
  return state.loaded && state.connections.every((connection) => connection.builtIn);
}

/** The label a connection gives a model, or its id. */
export function modelLabel(connection: ConnectionRecord | undefined, modelId: string): string {
  return connection?.models.find((model) => model.modelId === modelId)?.label ?? modelId;
}

/** The models a session may pick on a connection: its enabled ones, labelled where the list knows them. */
export function pickableModels(connection: ConnectionRecord): ModelInfo[] {
  return connection.enabledModelIds.map(
    (modelId) => connection.models.find((model) => model.modelId === modelId) ?? { modelId, label: modelId },
  );
}

/**
 * The model a session's turn will use, as the host resolves it: the session's own, else the default
 * target's when the connection is the default one, else the connection's first enabled model.
 */
export function effectiveModel(state: CatalogState, connectionId: string, model: string | null): string | null {
  if (model !== null) return model;
  if (state.defaultTarget?.connectionId === connectionId) return state.defaultTarget.modelId;
  return findConnection(state, connectionId)?.enabledModelIds[0] ?? null;
}

/** Connections a session can switch to: enabled ones with at least one model to pick. */
export function selectableConnections(state: CatalogState): ConnectionRecord[] {
  return state.connections.filter((connection) => connection.enabled && connection.enabledModelIds.length > 0);
}
