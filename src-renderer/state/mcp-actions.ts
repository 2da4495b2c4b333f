import type { McpResourceInfo, McpServerRecord, McpTestResult } from '../../src-shared/mcp-model';
import type { SliceCreator } from './app-state';
import type { McpActions, McpCatalogState, McpOutcome } from './mcp-slice';
import { upsertMcpServer } from './reducers/mcp-reducer';

/** The MCP slice's actions for the menus and Settings, loaded on the first call (see deferredActions). */
export const createMcpActions: SliceCreator<McpActions> = (set, get, deps) => {
  const { link } = deps;
  const keep = (server: McpServerRecord) => set((state) => ({ mcpServers: upsertMcpServer(state.mcpServers, server) }));
  const saved = (outcome: Awaited<ReturnType<typeof link.invoke<'mcp.server.update'>>>): McpOutcome => {
    if (!outcome.ok) {
      // Stale: read the list again so the form shows the record as it is now.
      if (outcome.error.code === 'revision_conflict') void get().loadMcpServers();
      return { ok: false, message: outcome.error.message };
    }
    keep(outcome.result.server);
    return { ok: true, server: outcome.result.server };
  };

  const appendToDraft = (sessionId: string, text: string) => {
    const current = get().readDraft(sessionId);
    get().setDraft(sessionId, current.trim() === '' ? text : `${current.trimEnd()}\n\n${text}`);
  };

  return {
    async loadMcpSessionServers(sessionId) {
      const outcome = await link.invoke('mcp.session.servers', { sessionId });
      if (outcome.ok)
        set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: outcome.result.servers } }));
    },
    async loadMcpCatalog(sessionId) {
      set((state) => ({ mcpCatalogs: { ...state.mcpCatalogs, [sessionId]: { state: 'loading' } } }));
      const outcome = await link.invoke('mcp.session.catalog', { sessionId });
      const next: McpCatalogState = outcome.ok
        ? { state: 'ready', prompts: outcome.result.prompts, resources: outcome.result.resources }
        : { state: 'failed', message: outcome.error.message };
      set((state) => ({ mcpCatalogs: { ...state.mcpCatalogs, [sessionId]: next } }));
    },
    async insertMcpPrompt(sessionId, prompt, args, mode = 'append') {
      const filled = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== ''));
      const outcome = await link.invoke('mcp.prompt.get', {
        sessionId,
        serverId: prompt.serverId,
        name: prompt.name,
        arguments: filled,
      });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      if (mode === 'replace') get().setDraft(sessionId, outcome.result.text);
      else appendToDraft(sessionId, outcome.result.text);
      return { ok: true };
    },
    async attachMcpResource(sessionId, resource) {
      const outcome = await link.invoke('mcp.resource.read', {
        sessionId,
        serverId: resource.serverId,
        uri: resource.uri,
      });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      appendToDraft(sessionId, attachmentText(resource, outcome.result.text));
      return { ok: true };
    },

    async createMcpServer(input) {
      return saved(await link.invoke('mcp.server.create', input));
    },
    async updateMcpServer(input) {
      return saved(await link.invoke('mcp.server.update', input));
    },
    async setMcpServerEnabled(serverId, enabled) {
      return saved(await link.invoke(enabled ? 'mcp.server.enable' : 'mcp.server.disable', { serverId }));
    },
    async removeMcpServer(serverId) {
      const outcome = await link.invoke('mcp.server.remove', { serverId });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      set((state) => ({ mcpServers: state.mcpServers?.filter((server) => server.serverId !== serverId) ?? null }));
      return { ok: true };
    },
    async testMcpServer(serverId) {
      set((state) => ({ mcpTests: { ...state.mcpTests, [serverId]: { state: 'testing' } } }));
      const outcome = await link.invoke('mcp.server.test', { serverId });
      const result: McpTestResult = outcome.ok
        ? outcome.result
        : { serverId, ok: false, message: outcome.error.message, stderrTail: null, serverInfo: null, tools: [] };
      set((state) => ({ mcpTests: { ...state.mcpTests, [serverId]: { state: 'done', result } } }));
    },
  };
};

/** A resource as it goes into a message: where it comes from, then its text fenced so it reads as quoted. */
export function attachmentText(resource: McpResourceInfo, text: string): string {
  const fence = text.includes('```') ? '````' : '```';
  return `Attached ${resource.name} (${resource.uri}, from the MCP server ${resource.serverName}):\n${fence}\n${text}\n${fence}`;
}
