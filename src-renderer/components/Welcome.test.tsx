import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { applyCatalog } from '../state/reducers/catalog-reducer';
import { StoreProvider } from '../state/store-context';
import { OFFLINE_DEMO, setupStore } from '../state/test-store';
import { Welcome } from './Welcome';

describe('Welcome', () => {
  it('offers, on first run, the local servers found, adding a connection and the Offline demo', () => {
    const { store } = setupStore();
    store.setState((state) => ({
      sessions: { ...state.sessions, listIds: [], listLoaded: true },
      catalog: applyCatalog(state.catalog, {
        connections: [OFFLINE_DEMO],
        defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
        catalogRevision: 1,
      }),
      discovery: {
        state: 'done',
        servers: [
          {
            providerType: 'ollama',
            name: 'Ollama',
            baseUrl: 'http://127.0.0.1:11434',
            models: [{ modelId: 'llama3', label: 'llama3' }],
          },
        ],
      },
    }));
    // A server render reads the store's initial state; point it at the state set up here.
    const html = renderToStaticMarkup(
      <StoreProvider store={{ ...store, getInitialState: store.getState }}>
        <Welcome firstRun />
      </StoreProvider>,
    );
    expect(html).toContain('Use Ollama at http://127.0.0.1:11434');
    expect(html).toContain('1 model');
    expect(html).toContain('Add a connection');
    expect(html).toContain('Try the Offline demo');
  });
});
