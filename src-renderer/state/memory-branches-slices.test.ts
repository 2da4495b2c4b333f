import { describe, expect, it, vi } from 'vitest';
import type { MemoryRecord } from '../../src-shared/memory-model';
import { session } from './reducers/record-fixtures';
import { setupStore as setup } from './test-store';

const memory = (memoryId: string, text: string, revision = 1): MemoryRecord => ({
  memoryId,
  text,
  scope: 'global',
  workspacePath: null,
  sourceSessionId: 's1',
  sourceTurnId: 't1',
  editedBy: 'agent',
  revision,
  createdAt: 1,
  updatedAt: 1,
});

describe('the memory slice', () => {
  it('shows why memory is unavailable, and keeps an open list current when the agent remembers', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    link.answer('memory.list', () => ({
      ok: false,
      error: { code: 'operation_unavailable', message: 'Memory is unavailable: no file.' },
    }));
    await store.getState().loadMemories();
    expect(store.getState().memoryList).toEqual({ state: 'failed', message: 'Memory is unavailable: no file.' });

    let memories = [memory('m1', 'One')];
    link.answer('memory.list', () => ({ ok: true, result: { memories } }));
    await store.getState().loadMemories();
    memories = [memory('m2', 'Two'), memory('m1', 'One')];
    link.push({ kind: 'memory.changed', memory: memory('m2', 'Two') });
    frames.flush();
    await vi.waitFor(() =>
      expect(store.getState().memoryList).toMatchObject({
        state: 'ready',
        memories: [{ memoryId: 'm2' }, { memoryId: 'm1' }],
      }),
    );
  });

  it('sends an edit with the revision it was made at, and shows a refusal', async () => {
    const { store, link } = setup({ openSession: 's1' });
    link.answer('memory.list', () => ({ ok: true, result: { memories: [memory('m1', 'Changed elsewhere', 3)] } }));
    link.answer('memory.update', () => ({
      ok: false,
      error: { code: 'revision_conflict', message: 'This memory changed since you opened it.' },
    }));
    expect(await store.getState().updateMemory('m1', 'Mine', 2)).toBe(false);
    expect(link.callsOf('memory.update')).toEqual([{ memoryId: 'm1', text: 'Mine', expectedRevision: 2 }]);
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['This memory changed since you opened it.']);
    expect(store.getState().memoryList).toMatchObject({ state: 'ready', memories: [{ text: 'Changed elsewhere' }] });
  });
});

describe('the branches slice', () => {
  it('makes a branch with a fresh request id, opens it, and re-reads the links the branch event names', async () => {
    const { store, link, frames } = setup({ openSession: 's1' });
    await vi.waitFor(() => expect(store.getState().transcripts.s1?.status).toBe('ready'));
    link.answer('session.branch', () => ({
      ok: true,
      result: { session: session({ sessionId: 'b1', title: 'First (branch)' }), turn: null, created: true },
    }));
    link.answer('session.branches', ({ sessionId }) => ({
      ok: true,
      result: {
        branchedFrom: null,
        branches:
          sessionId === 's1'
            ? [{ branchSessionId: 'b1', title: 'First (branch)', atItemId: 'u1', mode: 'edit' as const, createdAt: 1 }]
            : [],
        versions: [],
      },
    }));
    store.getState().setEditingMessage({ sessionId: 's1', itemId: 'u1' });
    await store.getState().branchAt('s1', 'u1', 'edit', 'hello again');
    expect(link.callsOf('session.branch')).toEqual([
      { sessionId: 's1', atItemId: 'u1', mode: 'edit', text: 'hello again', requestId: expect.stringMatching(/^id-/) },
    ]);
    expect(store.getState().selectedSessionId).toBe('b1');
    expect(store.getState().editingMessage).toBeNull();
    await vi.waitFor(() => expect(store.getState().branchLinks.s1?.branches).toHaveLength(1));

    const reads = link.callsOf('session.branches').length;
    link.push({ kind: 'session.branched', sessionId: 'b2', sourceSessionId: 's1' });
    frames.flush();
    await vi.waitFor(() => expect(link.callsOf('session.branches').length).toBeGreaterThan(reads));
  });

  it('keeps the editor open and says why when the host refuses the branch', async () => {
    const { store, link } = setup({ openSession: 's1' });
    link.answer('session.branch', () => ({
      ok: false,
      error: { code: 'host_draining', message: 'Cairn is shutting down.' },
    }));
    store.getState().setEditingMessage({ sessionId: 's1', itemId: 'u1' });
    await store.getState().branchAt('s1', 'u1', 'edit', 'x');
    expect(store.getState().editingMessage).toEqual({ sessionId: 's1', itemId: 'u1' });
    expect(store.getState().branchingItemId).toBeNull();
    expect(store.getState().toasts.map((toast) => toast.message)).toEqual(['Cairn is shutting down.']);
  });
});

describe('opening another version of a message', () => {
  it('opens its session scrolled to the message, and asks the switch there to take the focus', async () => {
    const { store } = setup({ openSession: 's1' });
    store.getState().openVersion({ sessionId: 'b1', itemId: 'b1:2' }, 'next');
    expect(store.getState().selectedSessionId).toBe('b1');
    expect(store.getState().focusedHit).toMatchObject({ sessionId: 'b1', itemId: 'b1:2' });
    expect(store.getState().versionFocus).toEqual({ sessionId: 'b1', itemId: 'b1:2', direction: 'next' });
    store.getState().clearVersionFocus();
    expect(store.getState().versionFocus).toBeNull();
  });
});
