import { agentTreeId } from '../../src-shared/agent-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import {
  applyAgentLinks,
  applyAgentTree,
  EMPTY_AGENTS,
  reduceAgentEvents,
  treesToReread,
  type AgentsState,
} from './reducers/agents-reducer';

/** Child agents: their links (the sidebar nests children under their root), statuses, and the tree's Stop. */
export interface AgentsSlice {
  readonly agents: AgentsState;
  /** Roots whose children the sidebar shows; every root starts collapsed. */
  readonly expandedAgentRoots: Readonly<Record<string, true>>;
  /** Reads every child's link (agent.links). */
  loadAgentLinks(): Promise<void>;
  /** Reads the tree a session belongs to (agent.tree); opening a child shows it under its root in the sidebar. */
  loadAgentTree(sessionId: string): Promise<void>;
  noteAgentEvents(batch: readonly ChangeEvent[]): void;
  setAgentChildrenOpen(rootSessionId: string, open: boolean): void;
  /** Stops a root's turn and every live descendant (agent.stop, aimed at this root's tree only). */
  stopAgentTree(rootSessionId: string): Promise<void>;
}

export const createAgentsSlice: SliceCreator<AgentsSlice> = (set, get, deps) => {
  const expand = (rootSessionId: string) => {
    if (get().expandedAgentRoots[rootSessionId] === undefined)
      set((state) => ({ expandedAgentRoots: { ...state.expandedAgentRoots, [rootSessionId]: true } }));
  };

  return {
    agents: EMPTY_AGENTS,
    expandedAgentRoots: {},

    async loadAgentLinks() {
      const outcome = await deps.link.invoke('agent.links', {});
      // Without the links the sidebar lists children as sessions of their own; nothing else is lost.
      if (!outcome.ok) return;
      get().flushEvents();
      set((state) => ({ agents: applyAgentLinks(state.agents, outcome.result.links) }));
    },

    async loadAgentTree(sessionId) {
      const outcome = await deps.link.invoke('agent.tree', { sessionId });
      if (!outcome.ok) return;
      // Events that arrived before the answer are older than it: apply them first.
      get().flushEvents();
      const { tree } = outcome.result;
      set((state) => ({ agents: applyAgentTree(state.agents, tree) }));
      if (tree.rootSessionId !== sessionId && get().selectedSessionId === sessionId) expand(tree.rootSessionId);
    },

    noteAgentEvents(batch) {
      const next = reduceAgentEvents(get().agents, batch);
      if (next !== get().agents) set({ agents: next });
      for (const root of treesToReread(batch)) void get().loadAgentTree(root);
    },

    setAgentChildrenOpen(rootSessionId, open) {
      if (open) {
        expand(rootSessionId);
        // The statuses shown under the root: read them once it opens (events keep them current).
        void get().loadAgentTree(rootSessionId);
        return;
      }
      if (get().expandedAgentRoots[rootSessionId] === undefined) return;
      const { [rootSessionId]: _closed, ...rest } = get().expandedAgentRoots;
      set({ expandedAgentRoots: rest });
    },

    async stopAgentTree(rootSessionId) {
      const outcome = await deps.link.invoke('agent.stop', {
        rootSessionId,
        expectedTreeId: agentTreeId(rootSessionId),
        source: 'stop_button',
      });
      if (!outcome.ok) get().reportFailure(outcome.error);
    },
  };
};
