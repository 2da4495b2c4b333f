import type { ChangeEvent } from '../../src-shared/events';
import type {
  McpPromptInfo,
  McpResourceInfo,
  McpServerRecord,
  McpSessionServer,
  McpTestResult,
} from '../../src-shared/mcp-model';
import type { OperationInput } from '../../src-shared/operations';
import type { SliceCreator } from './app-state';
import { deferredActions } from './deferred-actions';
import { applyMcpEvents, type McpServerList } from './reducers/mcp-reducer';

export type McpOutcome =
  { readonly ok: true; readonly server?: McpServerRecord } | { readonly ok: false; readonly message: string };
export type McpCatalogState =
  | { readonly state: 'loading' }
  | {
      readonly state: 'ready';
      readonly prompts: readonly McpPromptInfo[];
      readonly resources: readonly McpResourceInfo[];
    }
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
  insertMcpPrompt(
    sessionId: string,
    prompt: McpPromptInfo,
    args: Readonly<Record<string, string>>,
    mode?: 'append' | 'replace',
  ): Promise<McpOutcome>;
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

/** The actions that only the MCP menus and Settings use: their bodies load on the first call (mcp-actions). */
export type McpActions = Pick<
  McpSlice,
  | 'loadMcpSessionServers'
  | 'loadMcpCatalog'
  | 'insertMcpPrompt'
  | 'attachMcpResource'
  | 'createMcpServer'
  | 'updateMcpServer'
  | 'setMcpServerEnabled'
  | 'removeMcpServer'
  | 'testMcpServer'
>;

export const createMcpSlice: SliceCreator<McpSlice> = (set, get, deps) => ({
  mcpServers: null,
  mcpLoadError: null,
  mcpTests: {},
  mcpCatalogs: {},
  mcpSessionServers: {},
  ...deferredActions<McpActions>(
    {
      loadMcpSessionServers: true,
      loadMcpCatalog: true,
      insertMcpPrompt: true,
      attachMcpResource: true,
      createMcpServer: true,
      updateMcpServer: true,
      setMcpServerEnabled: true,
      removeMcpServer: true,
      testMcpServer: true,
    },
    () => import('./mcp-actions').then((module) => module.createMcpActions(set, get, deps)),
  ),

  async setMcpSessionServer(sessionId, serverId, on) {
    // Shown at once (the switch follows the click, so this one is not deferred); the host's answer then replaces it, or undoes it.
    const before = get().mcpSessionServers[sessionId];
    if (before !== undefined) {
      const shown = before.map((server) => (server.serverId === serverId ? { ...server, on } : server));
      set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: shown } }));
    }
    const outcome = await deps.link.invoke('mcp.session.setServer', { sessionId, serverId, on });
    if (!outcome.ok) {
      if (before !== undefined)
        set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: before } }));
      return { ok: false, message: outcome.error.message };
    }
    set((state) => ({ mcpSessionServers: { ...state.mcpSessionServers, [sessionId]: outcome.result.servers } }));
    void get().loadMcpCatalog(sessionId);
    return { ok: true };
  },

  // Read when the composer opens, to know whether to show the MCP menu at all.
  async loadMcpServers() {
    const outcome = await deps.link.invoke('mcp.server.list', {});
    if (!outcome.ok) {
      set({ mcpLoadError: outcome.error.message });
      return;
    }
    set({ mcpServers: outcome.result.servers, mcpLoadError: null });
  },
  noteMcpEvents(batch) {
    const current = get().mcpServers;
    const next = applyMcpEvents(current, batch);
    if (next !== current) set({ mcpServers: next });
  },
});
