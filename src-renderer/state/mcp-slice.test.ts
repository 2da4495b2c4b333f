import { describe, expect, it, vi } from 'vitest';
import type { McpPromptInfo, McpResourceInfo } from '../../src-shared/mcp-model';
import { setupStore } from './test-store';

const resource: McpResourceInfo = {
  serverId: 'm1',
  serverName: 'Notes',
  uri: 'notes://today',
  name: 'Today',
  description: '',
  mimeType: 'text/plain',
};
const prompt: McpPromptInfo = {
  serverId: 'm1',
  serverName: 'Notes',
  name: 'review',
  title: 'Review',
  description: '',
  arguments: [{ name: 'file', description: '', required: true }],
};

describe('the MCP slice', () => {
  it('attaches a resource to the draft as quoted text, after what was written', async () => {
    const { store, link } = setupStore();
    link.answer('mcp.resource.read', ({ uri }) => ({
      ok: true,
      result: { uri, mimeType: 'text/plain', text: 'Buy milk.' },
    }));
    store.getState().setDraft('s1', 'Summarise this:  ');
    expect(await store.getState().attachMcpResource('s1', resource)).toEqual({ ok: true });
    expect(store.getState().readDraft('s1')).toBe(
      'Summarise this:\n\nAttached Today (notes://today, from the MCP server Notes):\n```\nBuy milk.\n```',
    );
  });

  it('inserts a prompt with only the arguments given, and says why when the server cannot', async () => {
    const { store, link } = setupStore();
    const asked: unknown[] = [];
    link.answer('mcp.prompt.get', (input) => {
      asked.push(input);
      return { ok: true, result: { text: 'Please review app.ts.' } };
    });
    expect(await store.getState().insertMcpPrompt('s1', prompt, { file: 'app.ts', extra: '' })).toEqual({ ok: true });
    expect(asked).toEqual([{ sessionId: 's1', serverId: 'm1', name: 'review', arguments: { file: 'app.ts' } }]);
    expect(store.getState().readDraft('s1')).toBe('Please review app.ts.');
    link.answer('mcp.prompt.get', () => ({
      ok: false,
      error: { code: 'operation_unavailable', message: 'The MCP server "Notes" is not available.' },
    }));
    expect(await store.getState().insertMcpPrompt('s1', prompt, {})).toEqual({
      ok: false,
      message: 'The MCP server "Notes" is not available.',
    });
    expect(store.getState().readDraft('s1')).toBe('Please review app.ts.');
  });

  it('from the / menu, a prompt takes the place of the "/…" typed so far', async () => {
    const { store, link } = setupStore();
    link.answer('mcp.prompt.get', () => ({ ok: true, result: { text: 'Please review app.ts.' } }));
    store.getState().setDraft('s1', '/rev');
    expect(await store.getState().insertMcpPrompt('s1', prompt, { file: 'app.ts' }, 'replace')).toEqual({ ok: true });
    expect(store.getState().readDraft('s1')).toBe('Please review app.ts.');
  });

  it('turns a server off for a session and re-reads what the session is offered', async () => {
    const { store, link } = setupStore();
    link.answer('mcp.session.setServer', ({ sessionId, serverId, on }) => ({
      ok: true,
      result: { sessionId, servers: [{ serverId, name: 'Notes', enabled: true, on }] },
    }));
    link.answer('mcp.session.catalog', ({ sessionId }) => ({
      ok: true,
      result: { sessionId, prompts: [], resources: [] },
    }));
    expect(await store.getState().setMcpSessionServer('s1', 'm1', false)).toEqual({ ok: true });
    expect(store.getState().mcpSessionServers.s1).toEqual([
      { serverId: 'm1', name: 'Notes', enabled: true, on: false },
    ]);
    await vi.waitFor(() =>
      expect(store.getState().mcpCatalogs.s1).toEqual({ state: 'ready', prompts: [], resources: [] }),
    );
  });

  it('shows a session server turned off at once, and undoes it when the host refuses', async () => {
    const { store, link } = setupStore();
    link.answer('mcp.session.servers', ({ sessionId }) => ({
      ok: true,
      result: { sessionId, servers: [{ serverId: 'm1', name: 'Notes', enabled: true, on: true }] },
    }));
    await store.getState().loadMcpSessionServers('s1');
    link.answer('mcp.session.setServer', () => ({
      ok: false,
      error: { code: 'not_found', message: 'That MCP server does not exist (it may have been removed).' },
    }));
    const pending = store.getState().setMcpSessionServer('s1', 'm1', false);
    expect(store.getState().mcpSessionServers.s1?.[0]?.on).toBe(false);
    expect(await pending).toEqual({ ok: false, message: 'That MCP server does not exist (it may have been removed).' });
    expect(store.getState().mcpSessionServers.s1?.[0]?.on).toBe(true);
  });

  it('keeps the server list current from events', async () => {
    const { store, link, frames } = setupStore();
    link.answer('mcp.server.list', () => ({ ok: true, result: { servers: [] } }));
    await store.getState().loadMcpServers();
    const status = {
      state: 'connected' as const,
      message: null,
      stderrTail: null,
      serverInfo: { name: 'n', version: '1' },
      tools: [],
    };
    const server = {
      serverId: 'm1',
      name: 'Notes',
      transport: 'stdio' as const,
      command: 'x',
      args: [],
      cwd: null,
      env: [],
      url: null,
      headers: [],
      enabled: true,
      revision: 1,
      createdAt: 0,
      updatedAt: 0,
      status,
    };
    link.push({ kind: 'mcp.server.changed', server });
    frames.flush();
    expect(store.getState().mcpServers?.map((known) => [known.serverId, known.status.state])).toEqual([
      ['m1', 'connected'],
    ]);
    link.push({ kind: 'mcp.server.removed', serverId: 'm1' });
    frames.flush();
    expect(store.getState().mcpServers).toEqual([]);
  });
});
