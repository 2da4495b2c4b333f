import type { ConnectionRecord } from '../../src-shared/connection-model';
import type { OperationError } from '../../src-shared/errors';
import type { SliceCreator } from './app-state';
import type { CatalogActions, ModelFetch, SettingsOutcome } from './catalog-slice';
import { dropConnection, upsertConnection } from './reducers/catalog-reducer';

const CONFLICT_MESSAGE =
  'This changed in another window meanwhile. Cairn has re-read the connections — check them and try again.';

/** The catalog's Settings and first-run actions, loaded on the first call (see deferredActions). */
export const createCatalogActions: SliceCreator<CatalogActions> = (set, get, deps) => {
  const { link } = deps;
  /** Saves of a connection's model list, one after another (each needs the revision the last one made). */
  const modelSaves = new Map<string, Promise<SettingsOutcome>>();

  const keep = (connection: ConnectionRecord) =>
    set((state) => ({ catalog: upsertConnection(state.catalog, connection) }));

  async function failed(error: OperationError): Promise<SettingsOutcome> {
    if (error.code === 'revision_conflict') {
      await get().loadCatalog();
      return { ok: false, message: CONFLICT_MESSAGE, conflict: true };
    }
    if (error.code === 'not_found') void get().loadCatalog();
    return { ok: false, message: error.message, conflict: false };
  }

  const currentRevision = (connectionId: string) =>
    get().catalog.connections.find((connection) => connection.connectionId === connectionId)?.revision;

  return {
    async createConnection(input) {
      const outcome = await link.invoke('connection.create', input);
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      keep(outcome.result.connection);
      return { ok: true, connection: outcome.result.connection };
    },

    async updateConnection(input) {
      const outcome = await link.invoke('connection.update', input);
      if (!outcome.ok) return failed(outcome.error);
      keep(outcome.result.connection);
      return { ok: true };
    },

    saveEnabledModels(connectionId, modelIds) {
      const previous = modelSaves.get(connectionId) ?? Promise.resolve<SettingsOutcome>({ ok: true });
      const save = previous.then(async (): Promise<SettingsOutcome> => {
        const revision = currentRevision(connectionId);
        if (revision === undefined) return { ok: false, message: 'That connection no longer exists.', conflict: false };
        const outcome = await link.invoke('connection.update', {
          connectionId,
          expectedRevision: revision,
          enabledModelIds: [...modelIds],
        });
        if (!outcome.ok) return failed(outcome.error);
        keep(outcome.result.connection);
        return { ok: true };
      });
      modelSaves.set(connectionId, save);
      void save.then(() => {
        // A later save in line ends the override itself; the last one hands back to the record.
        if (modelSaves.get(connectionId) !== save) return;
        modelSaves.delete(connectionId);
        set((state) => {
          const next = { ...state.modelSelections };
          delete next[connectionId];
          return { modelSelections: next };
        });
      });
      return save;
    },

    async removeConnection(connectionId) {
      const revision = currentRevision(connectionId);
      const outcome = await link.invoke('connection.remove', {
        connectionId,
        ...(revision === undefined ? {} : { expectedRevision: revision }),
      });
      if (!outcome.ok) return failed(outcome.error);
      set((state) => ({ catalog: dropConnection(state.catalog, connectionId) }));
      void get().loadCatalog();
      return { ok: true };
    },

    async testConnection(connectionId, modelId) {
      set((state) => ({ connectionChecks: { ...state.connectionChecks, [connectionId]: { state: 'testing' } } }));
      const outcome = await link.invoke('connection.test', {
        connectionId,
        ...(modelId === undefined ? {} : { modelId }),
      });
      set((state) => {
        const checks = { ...state.connectionChecks };
        if (outcome.ok) checks[connectionId] = { state: 'done', result: { ...outcome.result, testedAt: Date.now() } };
        else delete checks[connectionId];
        return { connectionChecks: checks };
      });
      if (!outcome.ok) get().reportFailure(outcome.error);
    },

    async fetchModels(connectionId) {
      const setFetch = (fetch: ModelFetch | null) =>
        set((state) => {
          const modelFetches = { ...state.modelFetches };
          if (fetch === null) delete modelFetches[connectionId];
          else modelFetches[connectionId] = fetch;
          return { modelFetches };
        });
      setFetch({ state: 'fetching' });
      const outcome = await link.invoke('connection.models.fetch', { connectionId });
      if (!outcome.ok) {
        const result = await failed(outcome.error);
        setFetch(result.ok ? null : { state: 'failed', message: result.message });
        return result;
      }
      setFetch(null);
      keep(outcome.result.connection);
      if (outcome.result.notice !== null) get().showInfo(outcome.result.notice);
      return { ok: true };
    },

    async makeDefault(connectionId, modelId) {
      // No expected catalog revision: this window's own saves move it too (their answers do not say by
      // how much), and choosing the default is a plain last-word intent; the host still checks the model.
      const outcome = await link.invoke('connection.setDefault', { connectionId, modelId });
      if (!outcome.ok) return failed(outcome.error);
      set((state) => ({
        catalog: {
          ...state.catalog,
          defaultTarget: outcome.result.defaultTarget,
          catalogRevision: Math.max(state.catalog.catalogRevision, outcome.result.catalogRevision),
        },
      }));
      return { ok: true };
    },

    ...discoveryActions(set, get, link),
  };
};

/** First run: the local model servers found, and one made a connection, the default and a session in one step. */
function discoveryActions(
  set: Parameters<SliceCreator<CatalogActions>>[0],
  get: Parameters<SliceCreator<CatalogActions>>[1],
  link: Parameters<SliceCreator<CatalogActions>>[2]['link'],
): Pick<CatalogActions, 'discoverServers' | 'useDiscoveredServer'> {
  return {
    async discoverServers() {
      if (get().discovery.state !== 'idle') return;
      set({ discovery: { state: 'loading' } });
      const outcome = await link.invoke('connection.discover', {});
      set({ discovery: { state: 'done', servers: outcome.ok ? outcome.result.servers : [] } });
    },

    async useDiscoveredServer(server) {
      const firstModel = server.models[0]?.modelId;
      const created = await get().createConnection({
        name: server.name,
        providerType: server.providerType,
        baseUrl: server.baseUrl,
        ...(firstModel === undefined ? {} : { enabledModelIds: [firstModel] }),
      });
      if (!created.ok) {
        get().showError(created.message);
        return;
      }
      const fetched = await get().fetchModels(created.connection.connectionId);
      if (!fetched.ok) get().showError(fetched.message);
      if (firstModel !== undefined) {
        const made = await get().makeDefault(created.connection.connectionId, firstModel);
        if (!made.ok) get().showError(made.message);
      }
      await get().createSession();
    },
  };
}
