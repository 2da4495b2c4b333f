import type { ChangeEvent } from '../../src-shared/events';
import type { McpPromptInfo, McpResourceInfo, McpServerRecord, McpSessionServer, McpTestResult } from '../../src-shared/mcp-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';
import { applyMcpEvents, upsertMcpServer, type McpServerList } from './reducers/mcp-reducer';

export type McpOutcome = { readonly ok: true; readonly server?: McpServerRecord } | { readonly ok: false; readonly message: string };
export type McpCatalogState =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly prompts: readonly McpPromptInfo[]; readonly resources: readonly McpResourceInfo[] }
  | { readonly state: 'failed'; readonly message: string };
export type McpTestState = { readonly state: 'testing' } | { readonly state: 'done'; readonly result: McpTestResult };

/** Settings → Tools (MCP): the person's MCP servers, their status (kept current by events), and Test. */
export interface McpSlice {
  readonly mcpServers: McpServerList;
  readonly mcpLoadError: string | null;
  readonly mcpTests: Readonly<Record<string, McpTestState>>;
  /** Per session: the prompts and resources its servers offer (the / menu and the composer's MCP menu). */
  readonly mcpCatalogs: Readonly<Record<string, McpCatalogState>>;
  loadMcpCatalog(sessionId: string): Promise<void>;
  /** Per session: which servers are on there. */
  readonly mcpSessionServers: Readonly<Record<string, readonly McpSessionServer[]>>;
  loadMcpSessionServers(sessionId: string): Promise<void>;
  /** Turns a server on or off for one session, then re-reads what its servers offer. */
  setMcpSessionServer(sessionId: string, serverId: string, on: boolean): Promise<McpOutcome>;
  /** Puts a prompt's text (its arguments filled in) into the session's draft: after what is there, or in its place (the / menu). */
  insertMcpPrompt(sessionId: string, prompt: McpPromptInfo, args: Readonly<Record<string, string>>, mode?: 'append' | 'replace'): Promise<McpOutcome>;
  /** Attaches a resource's text to the session's draft. */
  attachMcpResource(sessionId: string, resource: McpResourceInfo): Promise<McpOutcome>;
  loadMcpServers(): Promise<void>;
  createMcpServer(input: OperationInput<'mcp.server.create'>): Promise<McpOutcome>;
  updateMcpServer(input: OperationInput<'mcp.server.update'>): Promise<McpOutcome>;
  setMcpServerEnabled(serverId: string, enabled: boolean): Promise<McpOutcome>;
  removeMcpServer(serverId: string): Promise<McpOutcome>;
  testMcpServer(serverId: string): Promise<void>;
  /** Applies the MCP events of a batch of host events. */
  noteMcpEvents(batch: readonly ChangeEvent[]): void;
}

export const createMcpSlice: SliceCreator<McpSlice> = (set, get, deps) => {
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
    const current = get().drafts[sessionId] ?? '';
    get().setDraft(sessionId, current.trim() === '' ? text : `${current.trimEnd()}\n\n${text}`);
  };

  return {
    mcpServers: null,
    mcpLoadError: null,
    mcpTests: {},
    mcpCatalogs: {},
    mcpSessionServers: {},

    async loadMcpSessionServers(sessionId) {
      const outcome = await link.invoke('mcp.session.servers', { sessionId });
      if (outcome.ok) set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: outcome.result.servers } }));
    },
    async setMcpSessionServer(sessionId, serverId, on) {
      // Shown at once (the switch follows the click); the host's answer then replaces it, or undoes it.
      const before = get().mcpSessionServers[sessionId];
      if (before !== undefined) {
        const shown = before.map((server) => (server.serverId === serverId ? { ...server, on } : server));
        set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: shown } }));
      }
      const outcome = await link.invoke('mcp.session.setServer', { sessionId, serverId, on });
      if (!outcome.ok) {
        if (before !== undefined) set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: before } }));
        return { ok: false, message: outcome.error.message };
      }
      set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: outcome.result.servers } }));
      void get().loadMcpCatalog(sessionId);
      return { ok: true };
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
      const outcome = await link.invoke('mcp.prompt.get', { sessionId, serverId: prompt.serverId, name: prompt.name, arguments: filled });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      if (mode === 'replace') get().setDraft(sessionId, outcome.result.text);
      else appendToDraft(sessionId, outcome.result.text);
      return { ok: true };
    },
    async attachMcpResource(sessionId, resource) {
      const outcome = await link.invoke('mcp.resource.read', { sessionId, serverId: resource.serverId, uri: resource.uri });
      if (!outcome.ok) return { ok: false, message: outcome.error.message };
      appendToDraft(sessionId, attachmentText(resource, outcome.result.text));
      return { ok: true };
    },

    async loadMcpServers() {
      const outcome = await link.invoke('mcp.server.list', {});
      if (!outcome.ok) {
        set({ mcpLoadError: outcome.error.message });
        return;
      }
      set({ mcpServers: outcome.result.servers, mcpLoadError: null });
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
      const result: McpTestResult = outcome.ok ? outcome.result : { serverId, ok: false, message: outcome.error.message, stderrTail: null, serverInfo: null, tools: [] };
      set((state) => ({ mcpTests: { ...state.mcpTests, [serverId]: { state: 'done', result } } }));
    },
    noteMcpEvents(batch) {
      const current = get().mcpServers;
      const next = applyMcpEvents(current, batch);
      if (next !== current) set({ mcpServers: next });
    },
  };
};

/** A resource as it goes into a message: where it comes from, then its text fenced so it reads as quoted. */
export function attachmentText(resource: McpResourceInfo, text: string): string {
  const fence = text.includes('```') ? '````' : '```';
  return `Attached ${resource.name} (${resource.uri}, from the MCP server ${resource.serverName}):\n${fence}\n${text}\n${fence}`;
}
