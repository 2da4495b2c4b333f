import { describe, expect, it, vi } from 'vitest';
import { session } from './reducers/record-fixtures';
import { setupStore } from './test-store';

describe('the workspace slice', () => {
  it('changes the permission mode, showing the choice until the host answers', async () => {
    const { store, link } = setupStore();
    await vi.waitFor(() => expect(store.getState().sessions.byId.s1).toBeDefined());
    link.answer('session.configure', (input) => ({
      ok: true,
      result: {
        session: session({ sessionId: input.sessionId, permissionMode: input.permissionMode ?? 'ask', revision: 2 }),
      },
    }));
    const change = store.getState().setPermissionMode('s1', 'full');
    expect(store.getState().modeChanging.s1).toBe('full');
    await change;
    expect(link.callsOf('session.configure')).toEqual([{ sessionId: 's1', permissionMode: 'full' }]);
    expect(store.getState().sessions.byId.s1?.permissionMode).toBe('full');
    expect(store.getState().modeChanging.s1).toBeUndefined();
  });

  it('sets and clears the workspace folder, and hands back the host’s refusal', async () => {
    const { store, link } = setupStore();
    await vi.waitFor(() => expect(store.getState().sessions.byId.s1).toBeDefined());
    link.answer('session.configure', (input) =>
      input.workspacePath === '/nowhere'
        ? {
            ok: false,
            error: { code: 'invalid_input', message: 'The folder /nowhere does not exist on this machine.' },
          }
        : {
            ok: true,
            result: { session: session({ sessionId: 's1', workspacePath: input.workspacePath ?? null, revision: 3 }) },
          },
    );
    expect(await store.getState().setWorkspaceFolder('s1', '/nowhere')).toEqual({
      ok: false,
      message: 'The folder /nowhere does not exist on this machine.',
    });
    expect(await store.getState().setWorkspaceFolder('s1', '  /work/project ')).toEqual({ ok: true });
    expect(store.getState().sessions.byId.s1?.workspacePath).toBe('/work/project');
    await store.getState().setWorkspaceFolder('s1', '');
    expect(link.callsOf('session.configure').at(-1)).toEqual({ sessionId: 's1', workspacePath: null });
  });

  it('asks the desktop app for a folder, and says when there is no picker', async () => {
    const { store, link } = setupStore();
    link.answer('workspace.pickFolder', () => ({ ok: true, result: { path: '/home/me/project' } }));
    expect(await store.getState().pickWorkspaceFolder()).toEqual({ ok: true, path: '/home/me/project' });
    link.answer('workspace.pickFolder', () => ({
      ok: false,
      error: { code: 'operation_unavailable', message: 'There is no folder picker in the browser.' },
    }));
    expect(await store.getState().pickWorkspaceFolder()).toEqual({
      ok: false,
      message: 'There is no folder picker in the browser.',
    });
  });

  it('asks before switching to Full, and switches only when the person confirms', async () => {
    const { store, link } = setupStore();
    await vi.waitFor(() => expect(store.getState().sessions.byId.s1).toBeDefined());
    link.answer('session.configure', (input) => ({
      ok: true,
      result: {
        session: session({ sessionId: input.sessionId, permissionMode: input.permissionMode ?? 'ask', revision: 2 }),
      },
    }));
    store.getState().choosePermissionMode('s1', 'full');
    expect(store.getState().confirmingFullFor).toBe('s1');
    await store.getState().confirmFullMode(false);
    expect(store.getState().confirmingFullFor).toBeNull();
    expect(link.callsOf('session.configure')).toEqual([]);

    store.getState().choosePermissionMode('s1', 'full');
    await store.getState().confirmFullMode(true);
    expect(link.callsOf('session.configure')).toEqual([{ sessionId: 's1', permissionMode: 'full' }]);
    // Leaving Full (or any other change) needs no confirmation.
    store.getState().choosePermissionMode('s1', 'explore');
    await vi.waitFor(() =>
      expect(link.callsOf('session.configure').at(-1)).toEqual({ sessionId: 's1', permissionMode: 'explore' }),
    );
    expect(store.getState().confirmingFullFor).toBeNull();
  });

  it('reads the session’s grants and revokes one', async () => {
    const { store, link } = setupStore();
    const grant = { toolName: 'run_shell', grantedAt: 5, example: 'Run ls' };
    link.answer('permission.grants.list', ({ sessionId }) => ({
      ok: true,
      result: { sessionId, grants: [grant], hosts: [] },
    }));
    link.answer('permission.grants.revoke', ({ sessionId }) => ({
      ok: true,
      result: { sessionId, grants: [], hosts: [] },
    }));
    await store.getState().loadGrants('s1');
    expect(store.getState().grants.s1).toEqual([grant]);
    await store.getState().revokeGrant('s1', 'run_shell');
    expect(link.callsOf('permission.grants.revoke')).toEqual([{ sessionId: 's1', toolName: 'run_shell' }]);
    expect(store.getState().grants.s1).toEqual([]);
  });
});
