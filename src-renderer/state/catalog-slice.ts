import type { ConnectionLastTest, ConnectionRecord, DiscoveredServer } from '../../src-shared/connection-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';
import type { CatalogState } from './reducers/catalog-reducer';
import { deferredActions } from './deferred-actions';
import { applyCatalog, EMPTY_CATALOG } from './reducers/catalog-reducer';

/** A Test run from this window: under way, or its result and when it came (the host keeps it on the connection too). */
export type ConnectionCheck =
  { readonly state: 'testing' } | { readonly state: 'done'; readonly result: ConnectionLastTest };

/** A model list being read, or why the last read failed. */
export type ModelFetch = { readonly state: 'fetching' } | { readonly state: 'failed'; readonly message: string };

/** Local model servers found on first run (connection.discover). */
export type Discovery =
  { readonly state: 'idle' | 'loading' } | { readonly state: 'done'; readonly servers: readonly DiscoveredServer[] };

/** What a Settings action came to, for the form to say next to itself. */
export type SettingsOutcome =
  { readonly ok: true } | { readonly ok: false; readonly message: string; readonly conflict: boolean };

/** Connections to model providers: the catalog, and the Settings actions on it. */
export interface CatalogSlice {
  readonly catalog: CatalogState;
  readonly connectionChecks: Readonly<Record<string, ConnectionCheck>>;
  /** Models ticked in Settings but not yet saved, by connection (shown at once, saved in order). */
  readonly modelSelections: Readonly<Record<string, readonly string[]>>;
  readonly modelFetches: Readonly<Record<string, ModelFetch>>;
  readonly discovery: Discovery;
  loadCatalog(): Promise<void>;
  createConnection(
    input: OperationInput<'connection.create'>,
  ): Promise<{ ok: true; connection: ConnectionRecord } | { ok: false; message: string }>;
  updateConnection(input: OperationInput<'connection.update'>): Promise<SettingsOutcome>;
  setEnabledModels(connectionId: string, modelIds: readonly string[]): Promise<SettingsOutcome>;
  removeConnection(connectionId: string): Promise<SettingsOutcome>;
  testConnection(connectionId: string, modelId?: string): Promise<void>;
  fetchModels(connectionId: string): Promise<SettingsOutcome>;
  makeDefault(connectionId: string, modelId: string | null): Promise<SettingsOutcome>;
  discoverServers(): Promise<void>;
  /** First run: a connection to a discovered server, its first model the default, and a session on it. */
  useDiscoveredServer(server: DiscoveredServer): Promise<void>;
}

/** The actions of Settings and of the first run: their bodies load on the first call (catalog-actions). */
export type CatalogActions = Omit<
  CatalogSlice,
  'catalog' | 'connectionChecks' | 'modelSelections' | 'modelFetches' | 'discovery' | 'loadCatalog' | 'setEnabledModels'
> & {
  /** Saves ticked models, one save after another (each needs the revision the last one made). */
  saveEnabledModels(connectionId: string, modelIds: readonly string[]): Promise<SettingsOutcome>;
};

export const createCatalogSlice: SliceCreator<CatalogSlice> = (set, get, deps) => {
  let catalogRequest = 0;
  const { saveEnabledModels, ...actions } = deferredActions<CatalogActions>(
    {
      createConnection: true,
      updateConnection: true,
      saveEnabledModels: true,
      removeConnection: true,
      testConnection: true,
      fetchModels: true,
      makeDefault: true,
      discoverServers: true,
      useDiscoveredServer: true,
    },
    () => import('./catalog-actions').then((module) => module.createCatalogActions(set, get, deps)),
  );
  return {
    catalog: EMPTY_CATALOG,
    connectionChecks: {},
    modelSelections: {},
    modelFetches: {},
    discovery: { state: 'idle' },
    ...actions,

    setEnabledModels(connectionId, modelIds) {
      // The ticks show at once; saving them loads with the other Settings actions.
      set((state) => ({ modelSelections: { ...state.modelSelections, [connectionId]: modelIds } }));
      return saveEnabledModels(connectionId, modelIds);
    },

    async loadCatalog() {
      const request = ++catalogRequest;
      const outcome = await deps.link.invoke('connection.list', {});
      if (request !== catalogRequest) return;
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set((state) => ({ catalog: applyCatalog(state.catalog, outcome.result) }));
    },
  };
};
