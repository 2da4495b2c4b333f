import type { ChangeEvent } from '../../src-shared/events';
import type { McpServerRecord, McpTestResult } from '../../src-shared/mcp-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';
import { applyMcpEvents, upsertMcpServer, type McpServerList } from './reducers/mcp-reducer';

export type McpOutcome = { readonly ok: true; readonly server?: McpServerRecord } | { readonly ok: false; readonly message: string };
export type McpTestState = { readonly state: 'testing' } | { readonly state: 'done'; readonly result: McpTestResult };

/** Settings → Tools (MCP): the person's MCP servers, their status (kept current by events), and Test. */
export interface McpSlice {
  readonly mcpServers: McpServerList;
  readonly mcpLoadError: string | null;
  readonly mcpTests: Readonly<Record<string, McpTestState>>;
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

  return {
    mcpServers: null,
    mcpLoadError: null,
    mcpTests: {},

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
      const result: McpTestResult = outcome.ok
        ? outcome.result
        : { serverId, ok: false, message: outcome.error.message, stderrTail: null, serverInfo: null, tools: [] };
      set((state) => ({ mcpTests: { ...state.mcpTests, [serverId]: { state: 'done', result } } }));
    },
    noteMcpEvents(batch) {
      const current = get().mcpServers;
      const next = applyMcpEvents(current, batch);
      if (next !== current) set({ mcpServers: next });
    },
  };
};
