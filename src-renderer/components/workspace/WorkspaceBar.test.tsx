import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { session } from '../../state/reducers/record-fixtures';
import { StoreProvider } from '../../state/store-context';
import { setupStore } from '../../state/test-store';
import { WorkspaceBar } from './WorkspaceBar';

function render(workspacePath: string | null): string {
  const { store, disconnect } = setupStore();
  const sessions = store.getState().sessions;
  store.setState({
    sessions: {
      ...sessions,
      byId: { ...sessions.byId, s1: session({ sessionId: 's1', workspacePath, permissionMode: 'full' }) },
    },
  });
  const html = renderToStaticMarkup(
    <StoreProvider store={{ ...store, getInitialState: () => store.getState() }}>
      <WorkspaceBar sessionId="s1" />
    </StoreProvider>,
  );
  disconnect();
  return html;
}

describe('WorkspaceBar', () => {
  it('offers Changes only in a session with a workspace folder (without one there are no file changes to show)', () => {
    expect(render('/home/me/project')).toContain('data-testid="changes-button"');
    expect(render(null)).not.toContain('data-testid="changes-button"');
  });
});
