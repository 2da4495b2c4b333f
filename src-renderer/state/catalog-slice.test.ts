import { describe, expect, it, vi } from 'vitest';
import { connection } from './reducers/record-fixtures';
import { OFFLINE_DEMO, setupStore } from './test-store';

const box = connection({
  connectionId: 'c1',
  name: 'Box',
  revision: 3,
  models: [
    { modelId: 'm1', label: 'M1' },
    { modelId: 'm2', label: 'M2' },
  ],
  enabledModelIds: ['m1'],
});

async function loaded() {
  const setup = setupStore();
  setup.link.answer('connection.list', () => ({
    ok: true,
    result: {
      connections: [OFFLINE_DEMO, box],
      defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
      catalogRevision: 5,
    },
  }));
  await setup.store.getState().loadCatalog();
  return setup;
}

describe('the catalog slice', () => {
  it('re-reads the catalog when the host says it changed', async () => {
    const { store, link, frames } = await loaded();
    const reads = link.callsOf('connection.list').length;
    link.push({ kind: 'connections.changed', catalogRevision: 4 });
    frames.flush();
    expect(link.callsOf('connection.list').length).toBe(reads);
    link.push({ kind: 'connections.changed', catalogRevision: 6 });
    frames.flush();
    await vi.waitFor(() => expect(link.callsOf('connection.list').length).toBe(reads + 1));
    expect(store.getState().catalog.catalogRevision).toBe(5);
  });

  it('says so and re-reads when an edit meets a newer revision', async () => {
    const { store, link } = await loaded();
    link.answer('connection.update', () => ({ ok: false, error: { code: 'revision_conflict', message: 'stale' } }));
    const reads = link.callsOf('connection.list').length;
    const outcome = await store.getState().updateConnection({ connectionId: 'c1', expectedRevision: 3, name: 'New' });
    expect(outcome).toMatchObject({ ok: false, conflict: true });
    expect(outcome.ok ? '' : outcome.message).toMatch(/re-read/);
    expect(link.callsOf('connection.list').length).toBe(reads + 1);
  });

  it('saves ticked models one after another, each with the revision the last save made', async () => {
    const { store, link } = await loaded();
    let revision = 3;
    link.answer('connection.update', (input) => {
      if (input.expectedRevision !== revision)
        return { ok: false, error: { code: 'revision_conflict', message: 'stale' } };
      revision += 1;
      return { ok: true, result: { connection: { ...box, revision, enabledModelIds: input.enabledModelIds ?? [] } } };
    });
    const first = store.getState().setEnabledModels('c1', ['m1', 'm2']);
    expect(store.getState().modelSelections.c1).toEqual(['m1', 'm2']);
    const second = store.getState().setEnabledModels('c1', ['m2']);
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ ok: true });
    await vi.waitFor(() => expect(store.getState().modelSelections.c1).toBeUndefined());
    expect(link.callsOf('connection.update')).toEqual([
      { connectionId: 'c1', expectedRevision: 3, enabledModelIds: ['m1', 'm2'] },
      { connectionId: 'c1', expectedRevision: 4, enabledModelIds: ['m2'] },
    ]);
    expect(store.getState().catalog.connections.find((c) => c.connectionId === 'c1')?.enabledModelIds).toEqual(['m2']);
  });

  it('keeps the last Test verdict per connection and makes a connection’s model the default', async () => {
    const { store, link } = await loaded();
    link.answer('connection.test', () => ({
      ok: true,
      result: { verdict: 'bad_key' as const, message: 'Refused', latencyMs: 40 },
    }));
    await store.getState().testConnection('c1');
    expect(store.getState().connectionChecks.c1).toEqual({
      state: 'done',
      result: { verdict: 'bad_key', message: 'Refused', latencyMs: 40, testedAt: expect.any(Number) },
    });
    link.answer('connection.setDefault', ({ connectionId, modelId }) => ({
      ok: true,
      result: { defaultTarget: { connectionId, modelId }, catalogRevision: 6 },
    }));
    expect(await store.getState().makeDefault('c1', 'm1')).toEqual({ ok: true });
    expect(link.callsOf('connection.setDefault')).toEqual([{ connectionId: 'c1', modelId: 'm1' }]);
    expect(store.getState().catalog.defaultTarget).toEqual({ connectionId: 'c1', modelId: 'm1' });
  });
});
