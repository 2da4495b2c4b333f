import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../../src-shared/interaction-model';
import { connection, session } from '../state/reducers/record-fixtures';
import { StoreProvider } from '../state/store-context';
import { OFFLINE_DEMO, setupStore } from '../state/test-store';
import { PermissionPrompt } from './PermissionPrompt';

const CODEX = connection({ connectionId: 'codex', name: 'Codex', providerType: 'codex' });

const command: PermissionRequest = {
  kind: 'permission',
  toolName: 'run_shell',
  summary: 'Run echo hi > /elsewhere/note.txt',
  preview: { kind: 'command', command: 'echo hi > /elsewhere/note.txt', cwd: '/work' },
};

/** The card of a run_shell approval in session s1 on `connectionId`, on a host whose sandbox is available. */
function card(connectionId: string): string {
  const { store, disconnect } = setupStore();
  store.setState((state) => ({
    sandbox: { available: true, reason: null },
    sessions: { ...state.sessions, byId: { ...state.sessions.byId, s1: session({ sessionId: 's1', connectionId }) } },
    catalog: { ...state.catalog, connections: [OFFLINE_DEMO, CODEX] },
  }));
  // Server rendering reads the store's initial state; let it see the state set up here.
  const rendered = { ...store, getInitialState: () => store.getState() };
  const html = renderToStaticMarkup(
    <StoreProvider store={rendered}>
      <PermissionPrompt interactionId="i1" sessionId="s1" request={command} />
    </StoreProvider>,
  );
  disconnect();
  return html;
}

describe('the approval card of a command', () => {
  it("Cairn's own agent: allowed, the command runs in the sandbox, and running it outside is its own marked choice", () => {
    const html = card('offline-demo');
    expect(html).toContain('Allowed, it runs in the sandbox');
    expect(html).toContain('Run once without sandbox');
  });

  it('Codex: it asks only to go beyond its own sandbox, so the card says the command runs outside it, and offers no sandboxed choice', () => {
    const html = card('codex');
    expect(html).toContain('Codex asks to run this outside its sandbox');
    expect(html).not.toContain('it runs in the sandbox');
    expect(html).not.toContain('Run once without sandbox');
  });
});
