import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src-shared/connection-model';
import { connection } from '../../state/reducers/record-fixtures';
import { StoreProvider } from '../../state/store-context';
import { setupStore } from '../../state/test-store';
import { ConnectionEditor } from './ConnectionEditor';

function render(record: ConnectionRecord | null): string {
  const { store } = setupStore();
  return renderToStaticMarkup(
    <StoreProvider store={{ ...store, getInitialState: store.getState }}>
      <ConnectionEditor connection={record} />
    </StoreProvider>,
  );
}

/** The form's field labels and group legends, in order (a required field's marker left out). */
const fieldsOf = (html: string) =>
  [...html.matchAll(/<(?:label|legend) class="field-label"[^>]*>([^<]*)/g)].map((match) => match[1]);
const TIMEOUTS = [
  'Patience with a slow provider',
  'First answer within (seconds)',
  'Silence mid-answer up to (seconds)',
];

describe('the connection form, by provider kind', () => {
  it('adding: the provider choice, then an OpenAI connection’s name, base URL and required key', () => {
    const html = render(null);
    expect(fieldsOf(html)).toEqual(['Provider', 'Name', 'Base URL', 'API key', ...TIMEOUTS]);
    expect(html).toMatch(/<input[^>]*id="[^"]*-api-key"[^>]*aria-required="true"/);
  });

  it('a model provider: no key field for Ollama unless one is stored, which can then be removed', () => {
    expect(fieldsOf(render(connection({ connectionId: 'c1', providerType: 'ollama' })))).toEqual([
      'Name',
      'Base URL',
      ...TIMEOUTS,
    ]);
    const stored = render(connection({ connectionId: 'c1', providerType: 'ollama', hasApiKey: true }));
    expect(fieldsOf(stored)).toEqual(['Name', 'Base URL', 'API key', ...TIMEOUTS]);
    expect(stored).toContain('•••• stored');
    expect(stored).toContain('Remove key');
  });

  it('Codex: name, base URL, key and which codex binary runs', () => {
    expect(fieldsOf(render(connection({ connectionId: 'c1', providerType: 'codex', baseUrl: null })))).toEqual([
      'Name',
      'Base URL',
      'API key',
      'Codex binary',
      ...TIMEOUTS,
    ]);
  });

  it('ACP: a known agent takes a base URL, key and model; a custom one its command line; both extra environment', () => {
    const claude = connection({
      connectionId: 'c1',
      providerType: 'acp',
      baseUrl: null,
      acpAgent: { command: 'claude', args: [], env: {}, preset: { kind: 'claude', model: null } },
    });
    expect(fieldsOf(render(claude))).toEqual([
      'Agent',
      'Name',
      'Base URL',
      'API key',
      'Model',
      'Environment',
      'Writable folders in Auto',
      ...TIMEOUTS,
    ]);
    const custom = connection({
      connectionId: 'c1',
      providerType: 'acp',
      baseUrl: null,
      acpAgent: { command: 'my-agent', args: ['--acp'], env: { A: '1' } },
    });
    const html = render(custom);
    expect(fieldsOf(html)).toEqual([
      'Agent',
      'Name',
      'Agent command',
      'Environment',
      'Writable folders in Auto',
      ...TIMEOUTS,
    ]);
    expect(html).toContain('my-agent --acp');
    expect(html).toMatch(/<textarea[^>]*id="[^"]*-acp-env"[^>]*aria-describedby="[^"]*-acp-env-help"/);
  });
});
