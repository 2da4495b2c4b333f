import { describe, expect, it } from 'vitest';
import {
  applyCatalog,
  dropConnection,
  EMPTY_CATALOG,
  effectiveModel,
  onlyBuiltIn,
  pickableModels,
  selectableConnections,
  upsertConnection,
} from './catalog-reducer';
import { connection } from './record-fixtures';

const demo = connection({
  connectionId: 'offline-demo',
  name: 'Offline demo',
  providerType: 'scripted',
  builtIn: true,
  enabledModelIds: ['scripted'],
  models: [{ modelId: 'scripted', label: 'Scripted agent' }],
});

describe('the catalog reducer', () => {
  it('takes a connection.list answer, and ignores one older than what it holds', () => {
    const first = applyCatalog(EMPTY_CATALOG, {
      connections: [demo],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 3,
    });
    expect(first.loaded).toBe(true);
    expect(onlyBuiltIn(first)).toBe(true);
    const stale = applyCatalog(first, {
      connections: [],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 2,
    });
    expect(stale).toBe(first);
  });

  it('upserts connections by revision and forgets a removed default', () => {
    let state = applyCatalog(EMPTY_CATALOG, {
      connections: [demo],
      defaultTarget: { connectionId: 'c1', modelId: 'm' },
      catalogRevision: 1,
    });
    state = upsertConnection(state, connection({ connectionId: 'c1', revision: 2, name: 'New' }));
    expect(onlyBuiltIn(state)).toBe(false);
    expect(upsertConnection(state, connection({ connectionId: 'c1', revision: 1, name: 'Old' }))).toBe(state);
    state = dropConnection(state, 'c1');
    expect(state.connections).toHaveLength(1);
    expect(state.defaultTarget).toBeNull();
  });

  it('resolves the model a session will use the way the host does', () => {
    const c1 = connection({
      connectionId: 'c1',
      enabledModelIds: ['a', 'b'],
      models: [{ modelId: 'a', label: 'Model A' }],
    });
    const state = applyCatalog(EMPTY_CATALOG, {
      connections: [demo, c1],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 1,
    });
    expect(effectiveModel(state, 'c1', 'b')).toBe('b');
    expect(effectiveModel(state, 'c1', null)).toBe('a');
    expect(effectiveModel(state, 'offline-demo', null)).toBe('scripted');
    expect(effectiveModel(state, 'gone', null)).toBeNull();
    expect(pickableModels(c1)).toEqual([
      { modelId: 'a', label: 'Model A' },
      { modelId: 'b', label: 'b' },
    ]);
  });

  it('offers only enabled connections that have a model to pick', () => {
    const off = connection({ connectionId: 'off', enabled: false, enabledModelIds: ['x'] });
    const empty = connection({ connectionId: 'empty' });
    const state = applyCatalog(EMPTY_CATALOG, {
      connections: [demo, off, empty],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 1,
    });
    expect(selectableConnections(state).map((c) => c.connectionId)).toEqual(['offline-demo']);
  });
});
